/**
 * Calibrates the semantic match floors on a judged set (the clean queries and their derived
 * variants): for each setting, nDCG@10 and how the match set (what `total` counts) holds up —
 * precision (share of matches graded ≥ 1) and recall (share of graded products matched).
 * In process, the engine and the local embedder as the gateway builds them.
 *
 *   npx tsx bench/relevance/calibrate.ts [--set DIR]              # floor × band
 *   npx tsx bench/relevance/calibrate.ts --feedback [--set DIR]   # pseudo-relevance feedback weight × band
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedSearchEngine } from '../../apps/gateway/src/search/embedded/embedded-engine.js';
import { LocalEmbedder } from '../../apps/gateway/src/search/embedders/local/local-embedder.js';
import { embeddingText, toSearchDocument } from '../../apps/gateway/src/search/product-text.js';
import { planQuery } from '../../apps/gateway/src/search/query/plan-query.js';
import { mean, ndcg, type Judgments } from './metrics.js';
import { deriveVariants, type JudgedQuery } from './variants.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const setDir = args.includes('--set') ? resolve(args[args.indexOf('--set') + 1]!) : here;
const spec = JSON.parse(readFileSync(join(setDir, 'queries.json'), 'utf8')) as { catalog?: string; queries: JudgedQuery[] };
const file = existsSync(join(setDir, 'products.ndjson')) ? join(setDir, 'products.ndjson') : resolve(here, '../..', spec.catalog ?? '');
const products = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const embedder = LocalEmbedder.load();
const documents = products.map((p: Parameters<typeof toSearchDocument>[1]) => toSearchDocument('m', p, embedder.embedOne(embeddingText(p))));
const queries = [...spec.queries, ...deriveVariants(spec.queries, products)];

async function evaluate(settings: { vectorFloor: number; vectorBand: number; feedback: number }) {
  const engine = new EmbeddedSearchEngine({ dimensions: embedder.dimensions, ...settings });
  await engine.replaceMerchant('m', documents);
  const rows = await Promise.all(
    queries.map(async (q) => {
      const plan = planQuery(q.text, {});
      const vector = plan.text ? await embedder.embedQuery(engine.spell('m', plan.text)) : undefined;
      const all = await engine.search({ merchantId: 'm', text: plan.text, vector, filters: plan.filters, offset: 0, limit: 5000, pricePreference: plan.pricePreference });
      const judged: Judgments = q.judgments;
      const relevant = Object.values(judged).filter((g) => g > 0).length;
      const hits = all.hits.map((h) => h.id);
      const good = hits.filter((id) => (judged[id] ?? 0) > 0).length;
      return { ndcg: ndcg(hits, judged), precision: hits.length ? good / hits.length : 1, recall: relevant ? good / relevant : 1, total: all.total };
    }),
  );
  return { ndcg: mean(rows.map((r) => r.ndcg)), precision: mean(rows.map((r) => r.precision)), recall: mean(rows.map((r) => r.recall)), total: mean(rows.map((r) => r.total)) };
}

console.log(`${products.length} products, ${queries.length} queries`);
const grid = args.includes('--feedback')
  ? [0, 0.5, 1, 2].flatMap((feedback) => [0.1, 0.15].map((vectorBand) => ({ vectorFloor: 0.45, vectorBand, feedback })))
  : [0.35, 0.4, 0.45, 0.5, 0.55].flatMap((vectorFloor) => [0.05, 0.1, 0.15, 0.2].map((vectorBand) => ({ vectorFloor, vectorBand, feedback: 0 })));
console.log('floor band  feedback  nDCG@10  precision  recall  F1     mean total');
for (const settings of grid) {
  const r = await evaluate(settings);
  const f1 = (2 * r.precision * r.recall) / (r.precision + r.recall);
  console.log(`${settings.vectorFloor.toFixed(2)}  ${settings.vectorBand.toFixed(2)}  ${settings.feedback.toFixed(1)}       ${r.ndcg.toFixed(3)}    ${r.precision.toFixed(3)}     ${r.recall.toFixed(3)}   ${f1.toFixed(3)}  ${r.total.toFixed(0)}`);
}
