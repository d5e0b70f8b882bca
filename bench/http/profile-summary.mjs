/**
 * What each edge step costs, from a V8 CPU profile of the server (BENCH_PROFILE=dir pnpm bench:http):
 * self time grouped by the code it ran in, over the last part of the profile (seconds before its end).
 *
 *   node bench/http/profile-summary.mjs PROFILE.cpuprofile [FROM_END_S,TO_END_S]
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const STEPS = [
  ['auth (key, cache, scopes)', /src\/(auth\/|http\/middleware\/require-auth)|node:internal\/crypto\/hash/],
  ['rate limit', /express-rate-limit|src\/rate-limit|src\/http\/middleware\/rate-limit/],
  ['request/response validation', /express-openapi-validator|\/ajv|ajv-formats|src\/http\/middleware\/validate|src\/contract/],
  ['idempotency', /src\/http\/middleware\/idempotency|src\/idempotency/],
  ['request log', /\/pino|sonic-boom|src\/http\/middleware\/request-log|src\/logger/],
  ['metrics', /prom-client|src\/ops\/(request-)?metrics/],
  ['other edge (id, locale, CORS, version, body)', /src\/http\/|cors@|body-parser|raw-body|content-type|node:internal\/crypto\/random/],
  ['Express routing', /\/router@|\/express@|path-to-regexp|parseurl|finalhandler|send@|on-finished|debug@/],
  ['catalog (read model, search)', /src\/(catalog|search)\//],
  ['database (Prisma, PGlite, pg)', /@prisma|prisma\/|@electric-sql|pglite|\/pg@|pg-protocol|wasm:\/\//],
  ['HTTP and sockets (node)', /node:_http|node:net|node:internal\/(streams|stream_base|http)|^writev$|^writeUtf8String$|^writeBuffer$|^writeLatin1String$/],
  ['garbage collector', /^\(garbage collector\)$/],
  ['idle', /^\(idle\)$/],
];

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const [fromEnd, toEnd] = (process.argv[3] ?? '1e9,0').split(',').map(Number);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let t = profile.startTime;
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  t += dt;
  const ago = (profile.endTime - t) / 1e6;
  if (ago > fromEnd || ago < toEnd) return;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});
// A bundled server (bench/support/bundle.ts) is one file: each function is placed back in its source through the bundle's map.
const maps = new Map();
function sourceOf({ url, lineNumber, columnNumber }) {
  if (!url.startsWith('file://') || url.includes('/node_modules/')) return url;
  if (!maps.has(url)) {
    const file = `${fileURLToPath(url)}.map`;
    maps.set(url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null);
  }
  const entry = maps.get(url)?.findEntry(lineNumber, columnNumber);
  return entry?.originalSource ?? url;
}
const steps = new Map(STEPS.map(([name]) => [name, 0]));
let other = 0;
for (const [id, dt] of self) {
  const { callFrame } = nodes.get(id);
  const where = sourceOf(callFrame) || callFrame.functionName;
  const step = STEPS.find(([, pattern]) => pattern.test(where));
  if (step) steps.set(step[0], steps.get(step[0]) + dt);
  else other += dt;
}
const busy = total - steps.get('idle');
console.log(`${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy; share of busy time:`);
for (const [name, dt] of [...steps, ['other', other]].filter(([n]) => n !== 'idle').sort((a, b) => b[1] - a[1])) {
  console.log(`  ${((100 * dt) / busy).toFixed(1).padStart(5)} %  ${name}`);
}
