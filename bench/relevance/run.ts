/**
 * Relevance of `GET /acp/products?q=` against a judged query set, beside a plain BM25
 * baseline computed in the same run (and the gateway's own keyword ranking with vectors off).
 *
 *   npx tsx bench/relevance/run.ts                      # the demo set (queries.json here)
 *   npx tsx bench/relevance/run.ts --set DIR            # DIR/products.ndjson + DIR/queries.json
 *   npx tsx bench/relevance/run.ts --verbose            # one line per query
 *   npx tsx bench/relevance/run.ts --clean              # without the derived typo, prefix and constraint variants (variants.ts)
 *
 * A set's queries.json: {"queries": [{"id", "text", "kind": "keyword"|"paraphrase", "judgments": {productId: 0|1|2}}]}.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestGateway } from '../../apps/gateway/test/support/test-gateway.js';
import { PlainBm25, type BaselineProduct } from './bm25.js';
import { cappedRecall, mean, ndcg, reciprocalRank, type Judgments } from './metrics.js';
import { deriveVariants } from './variants.js';

interface Query {
  id: string;
  text: string;
  kind?: string;
  judgments: Judgments;
  /** A derived variant's clean query. */
  of?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const setDir = args.includes('--set') ? resolve(args[args.indexOf('--set') + 1]!) : here;
const verbose = args.includes('--verbose');
const cleanOnly = args.includes('--clean');

const spec = JSON.parse(readFileSync(join(setDir, 'queries.json'), 'utf8')) as { catalog?: string; queries: Query[] };
const catalogPath = existsSync(join(setDir, 'products.ndjson')) ? join(setDir, 'products.ndjson') : resolve(root, spec.catalog ?? '');
const products = readFileSync(catalogPath, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as BaselineProduct);

const gateway = await startTestGateway();
try {
  const merchant = 'relevance';
  const started = performance.now();
  await gateway.importProducts(merchant, products as never);
  const importMs = performance.now() - started;
  const key = await gateway.createKey({ merchantIds: [merchant], scopes: ['catalog:read'] });
  const baseline = new PlainBm25(products);
  const engine = gateway.services.catalog.searchIndex.indexer.engine;

  type Row = { query: Query; hybrid: string[]; keyword: string[]; bm25: string[] };
  const rows: Row[] = [];
  const queries: Query[] = cleanOnly ? spec.queries : [...spec.queries, ...deriveVariants(spec.queries, products as never)];
  for (const query of queries) {
    const url = new URL('/acp/products', gateway.url);
    url.searchParams.set('q', query.text);
    url.searchParams.set('page_size', '10');
    const response = await fetch(url, { headers: { 'X-ACP-API-Key': key } });
    if (!response.ok) throw new Error(`GET ${url} → ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { items: { id: string }[] };
    const keyword = await engine.search({ merchantId: merchant, text: query.text, filters: {}, offset: 0, limit: 10 });
    rows.push({ query, hybrid: body.items.map((p) => p.id), keyword: keyword.hits.map((h) => h.id), bm25: baseline.search(query.text) });
  }

  const systems = ['bm25', 'keyword', 'hybrid'] as const;
  const labels = { bm25: 'plain BM25 (baseline)', keyword: 'gateway, keywords only (BM25F)', hybrid: 'gateway GET /acp/products?q= (hybrid)' };
  const score = (subset: Row[], system: (typeof systems)[number]) => ({
    ndcg: mean(subset.map((r) => ndcg(r[system], r.query.judgments))),
    mrr: mean(subset.map((r) => reciprocalRank(r[system], r.query.judgments))),
    recall: mean(subset.map((r) => cappedRecall(r[system], r.query.judgments))),
  });
  if (verbose) {
    for (const r of rows) {
      const f = (s: (typeof systems)[number]) => ndcg(r[s], r.query.judgments).toFixed(2);
      console.log(`${r.query.id} ${(r.query.kind ?? '').padEnd(10)} ${r.query.text.padEnd(50)} bm25 ${f('bm25')}  keyword ${f('keyword')}  hybrid ${f('hybrid')}`);
    }
  }
  console.log(`catalog: ${products.length} products from ${catalogPath} (import ${(importMs / 1000).toFixed(1)} s); ${rows.length} queries`);
  const groups: [string, Row[]][] = [['overall', rows]];
  for (const kind of [...new Set(rows.map((r) => r.query.kind).filter(Boolean))] as string[]) groups.push([kind, rows.filter((r) => r.query.kind === kind)]);
  for (const [name, subset] of groups) {
    console.log(`\n${name} (${subset.length} queries)       nDCG@10   MRR@10   R_cap@10`);
    for (const system of systems) {
      const s = score(subset, system);
      console.log(`  ${labels[system].padEnd(40)} ${s.ndcg.toFixed(3)}    ${s.mrr.toFixed(3)}    ${s.recall.toFixed(3)}`);
    }
    const base = score(subset, 'bm25');
    const hybrid = score(subset, 'hybrid');
    const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)}×`);
    console.log(`  hybrid ÷ BM25: nDCG@10 ${ratio(hybrid.ndcg, base.ndcg)}, MRR ${ratio(hybrid.mrr, base.mrr)}, R_cap@10 ${ratio(hybrid.recall, base.recall)}`);
  }
  // Retention: mean nDCG@10 of the noisy variants ÷ mean nDCG@10 of the clean queries they come from.
  const byId = new Map(rows.map((r) => [r.query.id, r]));
  for (const kind of ['typo', 'prefix', 'constraint']) {
    const variants = rows.filter((r) => r.query.kind === kind && r.query.of && byId.has(r.query.of));
    if (variants.length === 0) continue;
    const clean = variants.map((r) => byId.get(r.query.of!)!);
    const line = systems.map((system) => {
      const noisy = mean(variants.map((r) => ndcg(r[system], r.query.judgments)));
      const original = mean(clean.map((r) => ndcg(r[system], r.query.judgments)));
      return `${system} ${original === 0 ? 'n/a' : (noisy / original).toFixed(3)}`;
    });
    console.log(`\nretention, ${kind} (${variants.length} variants; nDCG@10 variant ÷ clean): ${line.join(', ')}`);
  }
} finally {
  await gateway.close();
}
