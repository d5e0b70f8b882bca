/**
 * bench/sdk: what the SDK adds to a call. Each operation is timed through `CommerceGateway` and
 * as a bare `fetch` of the same request (same headers, body parsed with `res.json()`), one call
 * at a time, alternating in small batches so that both meet the same server state; the ratio of
 * the median latencies is the SDK's per-call overhead. Goal: ≤ 1.15. The gateway is the built
 * CLI on the embedded defaults (as in packages/sdk's e2e tests), in a process of its own.
 *
 *   npx -y pnpm@12.21.0 exec turbo run build --filter=@commerce-gateway/gateway --filter=@commerce-gateway/sdk
 *   npx tsx bench/sdk/run.ts
 *   ROUNDS=40 BATCH=25 npx tsx bench/sdk/run.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommerceGateway } from '../../packages/sdk/dist/index.js';
import { assertGatewayBuilt, runCli, startServe } from '../../packages/sdk/test/support/gateway-process.js';

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const BATCH = Number(process.env.BATCH ?? 20);
const GOAL = 1.15;

// The real gateway as the e2e tests run it: the built CLI, in its own process, on a fresh embedded
// database seeded with the demo catalog, and a key whose limits the bench never meets.
assertGatewayBuilt();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-sdk-'));
await (await startServe(dataDir)).stop(); // seeds merchant demo
const key = (await runCli(['keys', 'create', '--merchant', 'demo', '--tier', 'enterprise', '--rpm', '100000000', '--rpd', '1000000000'], dataDir)).trim().split('\n').at(-1)!;
const gateway = await startServe(dataDir);
const url = gateway.url;
const database = 'embedded (PGlite)';

const headers = { Accept: 'application/json', 'X-ACP-API-Key': key, 'API-Version': '2026-11-01' };
const gw = new CommerceGateway({ apiKey: key, baseUrl: url });
const unvalidated = new CommerceGateway({ apiKey: key, baseUrl: url, validateResponses: false });

const page = await gw.products.search({ category: 'chairs', page_size: 10 });
const productId = page.items[0]!.id;
const cart = { items: [{ product_id: productId, quantity: 1 }] };

async function bare(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${url}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

interface Case {
  name: string;
  bare: () => Promise<unknown>;
  sdk: () => Promise<unknown>;
  sdkUnvalidated: () => Promise<unknown>;
}

const cases: Case[] = [
  {
    name: 'getProduct (GET, 1 product)',
    bare: () => bare(`/acp/products/${productId}`),
    sdk: () => gw.products.retrieve(productId),
    sdkUnvalidated: () => unvalidated.products.retrieve(productId),
  },
  {
    name: 'searchProducts (GET, 10 products)',
    bare: () => bare('/acp/products?category=chairs&page_size=10'),
    sdk: () => gw.products.search({ category: 'chairs', page_size: 10 }),
    sdkUnvalidated: () => unvalidated.products.search({ category: 'chairs', page_size: 10 }),
  },
  {
    name: 'createCheckoutSession (POST + Idempotency-Key)',
    bare: () => bare('/checkout_sessions', { method: 'POST', body: JSON.stringify(cart), headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() } }),
    sdk: () => gw.checkoutSessions.create(cart),
    sdkUnvalidated: () => unvalidated.checkoutSessions.create(cart),
  },
];

interface Samples {
  latencies: number[];
  /** Client-process CPU time (user + system), µs, and the calls it covers. */
  cpuMicros: number;
  calls: number;
}

const samples = (): Samples => ({ latencies: [], cpuMicros: 0, calls: 0 });

async function timeBatch(call: () => Promise<unknown>, into: Samples): Promise<void> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < BATCH; i++) {
    const started = performance.now();
    await call();
    into.latencies.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  into.cpuMicros += used.user + used.system;
  into.calls += BATCH;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(3)} ms`;

console.log(`bench/sdk — ${ROUNDS} rounds × ${BATCH} sequential calls per variant, alternating; database ${database}, Node ${process.version}`);
console.log('latency: median per call; client CPU: what the calling process spent per call, where the work of the SDK shows');
const VARIANTS = ['bare', 'sdk', 'sdkUnvalidated'] as const;
const LABELS = { bare: 'bare fetch', sdk: 'SDK', sdkUnvalidated: 'SDK, no validation' };
let worst = 0;
for (const c of cases) {
  const times = { bare: samples(), sdk: samples(), sdkUnvalidated: samples() };
  for (let i = 0; i < 3; i++) for (const variant of VARIANTS) await timeBatch(c[variant], samples()); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...VARIANTS].reverse() : VARIANTS;
    for (const variant of order) await timeBatch(c[variant], times[variant]);
  }
  const p50 = (variant: (typeof VARIANTS)[number]) => quantile(times[variant].latencies, 0.5);
  const cpu = (variant: (typeof VARIANTS)[number]) => times[variant].cpuMicros / times[variant].calls;
  worst = Math.max(worst, p50('sdk') / p50('bare'));
  console.log(`\n${c.name}`);
  for (const variant of VARIANTS) {
    const ratio = variant === 'bare' ? '' : `   ratio ${(p50(variant) / p50('bare')).toFixed(3)}`;
    console.log(
      `  ${LABELS[variant].padEnd(20)} p50 ${ms(p50(variant))}   p90 ${ms(quantile(times[variant].latencies, 0.9))}   client CPU ${cpu(variant).toFixed(0).padStart(5)} µs/call${ratio}`,
    );
  }
  console.log(`  SDK client CPU over bare: +${(cpu('sdk') - cpu('bare')).toFixed(0)} µs/call (${((cpu('sdk') - cpu('bare')) / 1000 / p50('bare') * 100).toFixed(1)} % of the bare median)`);
}
console.log(`\nworst ratio SDK/bare (p50, validation on): ${worst.toFixed(3)} (goal ≤ ${GOAL}) — ${worst <= GOAL ? 'met' : 'NOT met'}`);
await gateway.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(worst <= GOAL ? 0 : 1);
