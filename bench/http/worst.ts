/**
 * bench/http/worst.ts: what the dearest requests anyone can send cost the server, each beside a
 * plain `GET /acp/products/{id}` measured in the same round (issue 21: every form ≤ 5× the plain
 * GET). Each form's requests differ from one another (a fresh random query, key or bound each
 * time), so that no answer remembered by the gateway flatters it: this is what a client that
 * means harm, or a careless one, sends.
 *
 *   pnpm --filter @commerce-gateway/bench bench:http:worst                 (PGlite in memory, demo catalog)
 *   BENCH_PRODUCTS=50000 pnpm --filter @commerce-gateway/bench bench:http:worst
 *   BENCH_SECONDS=3 BENCH_ROUNDS=5 BENCH_CONNECTIONS=4 BENCH_FORMS=0,1,2 BENCH_BESIDE=0 (BENCH_FORMS: indexes into `forms`)
 *
 * Each round measures, for every form, the plain GET and then the form (the order swapped every
 * other round), and reads the server process's CPU time from /proc around each: the ratio is the
 * form's CPU a request ÷ the plain GET's, paired within the round, then the median over rounds (CPU
 * a request, not throughput: robust to a busy, shared machine). Then, unless BENCH_BESIDE=0, the
 * plain GET's p99 alone and beside as many connections sending each form (the issue's "four clients
 * pushed a plain GET's p99 from 42 to 752 ms").
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthesize } from '../search/synthesize.js';
import { bundleForNode } from '../support/bundle.js';
import { cpuSince, readCpu } from '../support/process-cpu.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 4);
const products = process.env.BENCH_PRODUCTS ? Number(process.env.BENCH_PRODUCTS) : undefined;
const beside = process.env.BENCH_BESIDE !== '0';
const GOAL = 5;

const here = fileURLToPath(new URL('.', import.meta.url));
const catalogFile = products ? await synthesize(products, resolve(here, '../search/results', `catalog-${products}.ndjson`)) : resolve(here, '../../apps/gateway/data/demo/products.ndjson');

/** A small deterministic generator (mulberry32): every run sends the same sequence. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(21);
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
/** CJK Unified Ideographs (U+4E00–U+9FFF): letters to the analyser, which reads a run of them as one word. */
const ideographs = (n: number) => Array.from({ length: n }, () => String.fromCharCode(0x4e00 + Math.floor(rand() * 0x5200))).join('');
const q = (text: string) => `/acp/products?q=${encodeURIComponent(text)}`;

/** Typical queries: word pairs of the catalog's titles (`billy bookcase`), more of them than any answer memory holds. */
const titles = readFileSync(catalogFile, 'utf8').split('\n', 5_000).filter(Boolean).map((line) => (JSON.parse(line) as { title: string }).title);
const typical = [...new Set(titles.flatMap((title) => [0, 1].map((from) => title.split(/[ ,]+/).slice(from, from + 2).join(' ').toLowerCase())))].filter((t) => t.includes(' '));
let nextTypical = 0;
/** The catalog's frequent title words of 5 to 8 letters, each to be sent with one typo (a letter changed, not the first): every one a typo search that finds terms. */
const frequent = (() => {
  const counts = new Map<string, number>();
  for (const title of titles) for (const word of title.toLowerCase().match(/[a-z]+/g) ?? []) if (word.length >= 5 && word.length <= 8) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 200).map(([word]) => word);
})();
const misspelt = (word: string) => {
  const at = 1 + Math.floor(rand() * (word.length - 1));
  return word.slice(0, at) + String.fromCharCode(97 + ((word.charCodeAt(at) - 97 + 1 + Math.floor(rand() * 25)) % 26)) + word.slice(at + 1);
};
const CATEGORIES = ['chairs', 'tables', 'sofas', 'beds', 'wardrobes', 'bookcases', 'outdoor', 'cabinets', 'bar', 'trolleys'];

interface Form {
  name: string;
  /** The next request's path (and headers, when not the bench key). */
  path: () => string;
  headers?: () => Record<string, string>;
  /** Sent without the bench key. */
  anonymous?: boolean;
  /**
   * Spends the client address's budget of failed authentications (then 429 — for every key this
   * process does not know yet, good ones too): measured after the other forms, not between them.
   */
  spendsAddressBudget?: boolean;
}

const forms: Form[] = [
  { name: 'q: 83 random 5-letter words', path: () => q(Array.from({ length: 83 }, () => letters(5)).join(' ')) },
  { name: 'q: 500 CJK characters', path: () => q(ideographs(500)) },
  { name: 'q: one 500-letter word', path: () => q(letters(500)) },
  { name: 'q: 62 misspelt catalog words', path: () => q(Array.from({ length: 62 }, () => misspelt(frequent[Math.floor(rand() * frequent.length)]!)).join(' ').slice(0, 500)) },
  { name: 'q: typical (title word pairs)', path: () => q(typical[nextTypical++ % typical.length]!) },
  { name: 'filters: category + max_price', path: () => `/acp/products?category=${CATEGORIES[Math.floor(rand() * CATEGORIES.length)]}&max_price=${10 + Math.floor(rand() * 990)}` },
  { name: 'GET /metrics (no key)', path: () => '/metrics', anonymous: true },
  { name: 'GET /readyz (no key)', path: () => '/readyz', anonymous: true },
  { name: 'bad key (401)', path: () => '/acp/products/10219178', headers: () => ({ 'X-ACP-API-Key': badKey() }), anonymous: true, spendsAddressBudget: true },
];
/** A well-formed key of the server's environment that no one holds (a malformed one is refused before any look-up). */
const badKey = () => `${ready.key.slice(0, ready.key.length - 32)}${letters(32)}`;
const PLAIN = '/acp/products/10219178';

// The gateway as bench/http serves it (server.ts), with process metrics on as `serve` has them (what /metrics then formats).
const child = fork(await bundleForNode(fileURLToPath(new URL('./server.ts', import.meta.url))), {
  stdio: 'inherit',
  env: { ...process.env, BENCH_PATHS: '[]', BENCH_PROCESS_METRICS: '1', ...(products ? { BENCH_CATALOG: catalogFile } : {}) },
});
const ready = await new Promise<{ full: string; key: string; products: number; database: string }>((done) => child.once('message', done as never));
const keyHeaders = { 'X-ACP-API-Key': ready.key };

interface Round {
  requests: number;
  cpuUs: number;
  p99: number;
  statuses: Record<string, number>;
}

/** One load run of `seconds` at `connections`, each request's path (and headers) from `form`. */
async function run(form: Pick<Form, 'path' | 'headers' | 'anonymous'>, ms = seconds * 1000): Promise<Round> {
  const base = form.anonymous ? {} : keyHeaders;
  const result = await autocannon({
    url: ready.full,
    connections,
    duration: ms / 1000,
    requests: [{ setupRequest: (req) => ({ ...req, path: form.path(), headers: { ...base, ...form.headers?.() } }) }],
  });
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries((result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {})) statuses[code] = count;
  return { requests: result.requests.total, cpuUs: 0, p99: result.latency.p99, statuses };
}

/** A run with the server's CPU time (from /proc) divided by its requests. */
async function measured(form: Pick<Form, 'path' | 'headers' | 'anonymous'>): Promise<Round> {
  const before = readCpu(child.pid);
  const round = await run(form);
  return { ...round, cpuUs: (cpuSince(before, child.pid).server * 1000) / Math.max(1, round.requests) };
}

const plain: Form = { name: 'GET /acp/products/{id}', path: () => PLAIN };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const only = process.env.BENCH_FORMS?.split(',').map(Number);
const chosen = forms.filter((_, i) => !only || only.includes(i)).sort((a, b) => Number(a.spendsAddressBudget ?? false) - Number(b.spendsAddressBudget ?? false));

console.log(`bench/http worst — ${ready.products} products, database ${ready.database}; ${rounds} rounds of ${seconds} s per form and per plain GET, ${connections} connections`);
for (const form of [plain, ...chosen.filter((f) => !f.spendsAddressBudget)]) await run(form, 1000); // warm-up (the typo vocabularies are built on first use)

const results = new Map<Form, { plain: Round[]; form: Round[] }>(chosen.map((f) => [f, { plain: [], form: [] }]));
/** `rounds` rounds over the forms, each form paired with a plain GET just before it (or, every other round, just after). */
async function paired(phase: readonly Form[]): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const form of phase) {
      const r = results.get(form)!;
      if (round % 2 === 0) {
        r.plain.push(await measured(plain));
        r.form.push(await measured(form));
      } else {
        r.form.push(await measured(form));
        r.plain.push(await measured(plain));
      }
    }
  }
}
const tails: string[] = [];
/** The plain GET's p99 alone, then beside as many connections sending each form. */
async function besideTails(phase: readonly Form[]): Promise<void> {
  tails.push(`plain GET p99 at ${connections} connections: alone ${(await run(plain)).p99} ms; beside ${connections} connections sending…`);
  for (const form of phase) {
    const [p] = await Promise.all([run(plain), run(form)]);
    tails.push(`  ${form.name.padEnd(34)} ${String(p.p99).padStart(5)} ms`);
  }
}

const free = chosen.filter((f) => !f.spendsAddressBudget);
await paired(free);
if (beside) await besideTails(free);
await paired(chosen.filter((f) => f.spendsAddressBudget));

console.log(`${'form'.padEnd(34)} ${'CPU a request'.padStart(14)} ${'plain GET'.padStart(10)} ${'ratio'.padStart(6)}  goal   statuses`);
for (const form of chosen) {
  const r = results.get(form)!;
  const ratio = median(r.form.map((f, i) => f.cpuUs / r.plain[i]!.cpuUs));
  const counts: Record<string, number> = {};
  for (const f of r.form) for (const [code, n] of Object.entries(f.statuses)) counts[code] = (counts[code] ?? 0) + n;
  const statuses = Object.entries(counts).map(([code, n]) => `${code} ×${n}`).join(', ');
  const cpu = (rounds: Round[]) => `${median(rounds.map((f) => f.cpuUs)).toFixed(0)} µs`;
  console.log(`${form.name.padEnd(34)} ${cpu(r.form).padStart(14)} ${cpu(r.plain).padStart(10)} ${`${ratio.toFixed(1)}×`.padStart(6)}  ≤ ${GOAL}× ${(ratio <= GOAL ? 'ok' : 'OVER').padEnd(4)} ${statuses}`);
}
if (tails.length) console.log(`\n${tails.join('\n')}`);

child.disconnect();
await new Promise((done) => child.once('exit', done));
