/**
 * A large catalog synthesized from the demo catalog by variation: each demo product yields
 * copies with another colour, size and price, a shuffled tag order, a new id and new SKUs.
 *
 *   npx tsx bench/search/synthesize.ts [COUNT] [OUT]     (defaults: 50000, bench/search/results/catalog-50k.ndjson)
 */
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = resolve(here, '../../apps/gateway/data/demo/products.ndjson');
const COLOURS = ['white', 'black', 'oak', 'walnut', 'grey', 'blue', 'green', 'beige', 'birch', 'red', 'anthracite', 'pine', 'yellow', 'pink', 'dark brown', 'light grey', 'natural'];
const SIZES = ['small', 'large', 'compact', 'wide', 'tall', 'low', 'XL', 'mini'];

/** A small deterministic generator (mulberry32), so every run builds the same catalog. */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function synthesize(count: number, out: string): Promise<string> {
  const demo = readFileSync(DEMO, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
  mkdirSync(dirname(out), { recursive: true });
  const stream = createWriteStream(out);
  const rand = random(42);
  for (let i = 0; i < count; i++) {
    const base = demo[i % demo.length]!;
    const round = Math.floor(i / demo.length);
    if (round === 0) {
      if (!stream.write(`${JSON.stringify(base)}\n`)) await new Promise((r) => stream.once('drain', r));
      continue;
    }
    const colour = COLOURS[Math.floor(rand() * COLOURS.length)]!;
    const size = SIZES[Math.floor(rand() * SIZES.length)]!;
    const price = Math.round(base.price * (0.6 + rand() * 0.8) * 100) / 100;
    const id = `${base.id}-v${round}`;
    const tags = [...base.tags].sort(() => rand() - 0.5);
    const product = {
      ...base,
      id,
      title: `${base.title}, ${size}, ${colour}`,
      description: `${base.description}. ${size[0]!.toUpperCase()}${size.slice(1)} version in ${colour}.`,
      price,
      tags,
      attributes: { ...base.attributes, colour: [colour] },
      variants: base.variants.map((v: Record<string, any>, n: number) => ({ ...v, sku: `${id}-${n}`, price })),
    };
    if (!stream.write(`${JSON.stringify(product)}\n`)) await new Promise((r) => stream.once('drain', r));
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const count = Number(process.argv[2] ?? 50_000);
  const out = resolve(process.argv[3] ?? resolve(here, 'results', `catalog-${count}.ndjson`));
  await synthesize(count, out);
  console.log(`wrote ${count} products to ${out}`);
}
