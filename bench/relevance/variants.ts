/**
 * Noisy and constrained variants of a judged query set, derived by rule (deterministic, from
 * the clean query and its judgments only — never from any engine's results):
 *
 * - typo: the query's longest word that typo tolerance covers (5+ letters, no digit) gets one
 *   edit (a swap of two neighbouring letters, a dropped, doubled or replaced letter, in turn);
 *   a word of 9+ letters gets two. Judgments: the clean query's.
 * - prefix: the last word cut mid-word (to 60 % of its letters, at least 3), as a shopper still
 *   typing sends it. Judgments: the clean query's.
 * - constraint: a price said in words added to the query, the bound set from the prices of the
 *   clean query's relevant products: `under $P` (P their median, rounded up), `between $A and
 *   $B` (their quartiles), `over $P`, or `cheap …`. Judgments: the clean query's, with products
 *   outside the bound set to 0; for `cheap`, a relevant product dearer than their lower third
 *   loses one grade.
 *
 *   npx tsx bench/relevance/variants.ts [--set DIR]   # prints the variants as JSON
 */
import type { Judgments } from './metrics.js';

export interface JudgedQuery {
  id: string;
  text: string;
  kind?: string;
  judgments: Judgments;
}

export interface Variant extends JudgedQuery {
  /** The clean query it was derived from. */
  of: string;
}

const NEAR: Record<string, string> = { a: 's', b: 'v', c: 'x', d: 's', e: 'r', f: 'g', g: 'h', h: 'j', i: 'o', j: 'k', k: 'l', l: 'k', m: 'n', n: 'm', o: 'p', p: 'o', q: 'w', r: 't', s: 'a', t: 'r', u: 'y', v: 'c', w: 'e', x: 'z', y: 't', z: 'x' };

function edit(word: string, op: number): string {
  const at = Math.max(1, Math.floor(word.length / 2));
  switch (op % 4) {
    case 0:
      return word.slice(0, at) + word[at + 1]! + word[at]! + word.slice(at + 2);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + word[at]! + word.slice(at);
    default:
      return word.slice(0, at) + (NEAR[word[at]!] ?? 'x') + word.slice(at + 1);
  }
}

function typo(text: string, seed: number): string | undefined {
  const words = text.split(' ');
  let pick = -1;
  words.forEach((w, i) => {
    if (/^[a-z]{5,}$/i.test(w) && (pick === -1 || w.length > words[pick]!.length)) pick = i;
  });
  if (pick === -1) return undefined;
  const word = words[pick]!;
  let out = edit(word, seed);
  if (word.length >= 9) out = out.slice(0, 2) + edit(out.slice(2), seed + 1);
  words[pick] = out;
  return words.join(' ');
}

function prefix(text: string): string | undefined {
  const words = text.split(' ');
  const last = words[words.length - 1]!;
  if (!/^[a-z]{4,}$/i.test(last)) return undefined;
  words[words.length - 1] = last.slice(0, Math.max(3, Math.round(last.length * 0.6)));
  return words.join(' ');
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const roundUp = (x: number) => (x < 100 ? Math.ceil(x / 5) * 5 : Math.ceil(x / 50) * 50);
const roundDown = (x: number) => (x < 100 ? Math.floor(x / 5) * 5 : Math.floor(x / 50) * 50);

function constraint(query: JudgedQuery, prices: Map<string, number>, seed: number): Variant | undefined {
  const relevant = Object.entries(query.judgments).filter(([id, g]) => g > 0 && prices.has(id));
  if (relevant.length < 4) return undefined;
  const sorted = relevant.map(([id]) => prices.get(id)!).sort((a, b) => a - b);
  const keep = (ok: (price: number) => boolean, text: string): Variant => ({
    id: `${query.id}-c`,
    of: query.id,
    kind: 'constraint',
    text,
    judgments: Object.fromEntries(Object.entries(query.judgments).map(([id, g]) => [id, ok(prices.get(id) ?? Infinity) ? g : 0])),
  });
  switch (seed % 4) {
    case 0: {
      const p = roundUp(quantile(sorted, 0.5));
      return keep((x) => x <= p, `${query.text} under $${p}`);
    }
    case 1: {
      const a = roundDown(quantile(sorted, 0.25));
      const b = roundUp(quantile(sorted, 0.75));
      return keep((x) => x >= a && x <= b, `${query.text} between $${a} and $${b}`);
    }
    case 2: {
      const p = roundDown(quantile(sorted, 0.5));
      return keep((x) => x >= p, `${query.text} over $${p}`);
    }
    default: {
      const third = quantile(sorted, 1 / 3);
      return {
        id: `${query.id}-c`,
        of: query.id,
        kind: 'constraint',
        text: `cheap ${query.text}`,
        judgments: Object.fromEntries(Object.entries(query.judgments).map(([id, g]) => [id, (prices.get(id) ?? Infinity) <= third ? g : Math.max(0, g - 1)])),
      };
    }
  }
}

export function deriveVariants(queries: readonly JudgedQuery[], products: readonly { id: string; price: number }[]): Variant[] {
  const prices = new Map(products.map((p) => [p.id, p.price]));
  const out: Variant[] = [];
  queries.forEach((query, i) => {
    const t = typo(query.text, i);
    if (t && t !== query.text) out.push({ id: `${query.id}-t`, of: query.id, kind: 'typo', text: t, judgments: query.judgments });
    const p = prefix(query.text);
    if (p && p !== query.text) out.push({ id: `${query.id}-p`, of: query.id, kind: 'prefix', text: p, judgments: query.judgments });
    const c = constraint(query, prices, i);
    if (c) out.push(c);
  });
  return out;
}

if (process.argv[1]?.endsWith('variants.ts')) {
  const { readFileSync } = await import('node:fs');
  const { dirname, join, resolve } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const here = dirname(fileURLToPath(import.meta.url));
  const args = process.argv.slice(2);
  const dir = args.includes('--set') ? resolve(args[args.indexOf('--set') + 1]!) : here;
  const spec = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { catalog?: string; queries: JudgedQuery[] };
  let file = join(dir, 'products.ndjson');
  try {
    readFileSync(file);
  } catch {
    file = resolve(here, '../..', spec.catalog ?? '');
  }
  const products = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { id: string; price: number });
  process.stdout.write(JSON.stringify(deriveVariants(spec.queries, products).map(({ id, of, kind, text }) => ({ id, of, kind, text })), null, 1) + '\n');
}
