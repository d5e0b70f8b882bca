/**
 * Checkout throughput and latency on PostgreSQL: create + complete through the
 * real gateway over HTTP, beside a baseline of the same SQL statements sent
 * directly with `pg`, in the same run, on a fresh database. The gateway is the built
 * `gateway serve` (GATEWAY_ENV=production, request logs on) in its own process, as a team
 * runs it; this process is its HTTP client, as it is the baseline's `pg` client.
 *
 *   TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx bench/checkout/run.ts
 *
 * A third side is the same gateway on a merchant with discounts and a shipping profile: each of its
 * checkouts asks for a code (with a usage limit, so it is read when priced and redeemed at
 * completion) and chooses a shipping option — beside the plain checkout, in the same rounds.
 *
 * Settings: CHECKOUTS (per side and round, default 600), ROUNDS (default 3), CONCURRENCY (default 8),
 * BENCH_PROFILE=dir (a CPU profile of the gateway process), BENCH_BASELINE=<another checkout of the
 * repository, built> (a fourth side: that checkout's gateway, on a database of its own, plain
 * checkouts in the same alternating rounds — e.g. a `git worktree` of an older commit),
 * BENCH_GATEWAY_ENV (default production; `sandbox` with PAYMENT_PROVIDER=test measures completions
 * that take a payment through the test provider).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeyService } from '../../apps/gateway/src/auth/key-service.js';
import { KeyStore } from '../../apps/gateway/src/auth/key-store.js';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { DiscountService } from '../../apps/gateway/src/discounts/discount-service.js';
import { DiscountStore } from '../../apps/gateway/src/discounts/discount-store.js';
import { ShippingProfileStore } from '../../apps/gateway/src/shipping/shipping-profile-store.js';
import { parseShippingProfile } from '../../apps/gateway/src/shipping/shipping-profile.js';
import { completeSession, createSession, type CartItem, type PgModule, type Pool } from './baseline.js';
import { BenchClient } from './http-client.js';
import { cpuSince, readCpu, type CpuReading } from '../support/process-cpu.js';
import { pick, summarize, type Sample } from './stats.js';

const gatewayRequire = createRequire(new URL('../../apps/gateway/package.json', import.meta.url));
const pg = gatewayRequire('pg') as PgModule;
const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('Set TEST_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server; the bench creates and drops its own database there.');
  process.exit(1);
}
const CHECKOUTS = Number(process.env.CHECKOUTS ?? 600);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const PRODUCTS = 200;
const POOL_SIZE = 10; // the gateway's PostgreSQL pool (db/database.ts)

function catalogFile(prefix: string): string {
  const product = (i: number) => ({
    id: `${prefix}-${i}`, title: `Product ${i}`, price: 5 + (i % 50) + 0.99, currency: 'USD',
    availability: { status: 'in_stock', quantity: 1_000_000_000, policy: 'deny' },
    variants: [{ sku: `${prefix}-${i}-v`, title: 'Default', price: 5 + (i % 50) + 0.99, currency: 'USD', attributes: {}, inventory: { status: 'in_stock', quantity: 1_000_000_000, policy: 'deny' } }],
  });
  const file = join(mkdtempSync(join(tmpdir(), 'bench-checkout-')), `${prefix}.ndjson`);
  writeFileSync(file, Array.from({ length: PRODUCTS }, (_, i) => JSON.stringify(product(i))).join('\n') + '\n');
  return file;
}

/** A cart of 2 distinct products, 1–3 units each. */
function cart(prefix: string): CartItem[] {
  const a = Math.floor(Math.random() * PRODUCTS);
  const b = (a + 1 + Math.floor(Math.random() * (PRODUCTS - 1))) % PRODUCTS;
  return [a, b].map((i) => ({ productId: `${prefix}-${i}`, quantity: 1 + Math.floor(Math.random() * 3) }));
}

/** Runs `count` checkouts on `concurrency` workers; one sample per checkout. */
async function drive(count: number, checkout: () => Promise<{ create: number; complete: number }>): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < count) samples.push(await checkout());
  }));
  return { samples, seconds: (performance.now() - started) / 1000 };
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const result = await work();
  return [result, performance.now() - t0];
}

const name = `gw_bench_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const db = await openDatabase({ url: url.toString() });
await db.migrate();
await importCatalog(db, 'bench-http', catalogFile('h'));
await importCatalog(db, 'bench-sql', catalogFile('s'));
await importCatalog(db, 'bench-disc', catalogFile('d'));
const keys = new KeyService(new KeyStore(db));
const GATEWAY_ENV = (process.env.BENCH_GATEWAY_ENV ?? 'production') as 'production' | 'sandbox';
const limits = { env: GATEWAY_ENV, scopes: ['*'], tier: 'enterprise', rpm: 100_000_000, rpd: 1_000_000_000 } as const;
const { key } = await keys.create({ ...limits, merchantIds: ['bench-http'] });
const { key: discountKey } = await keys.create({ ...limits, merchantIds: ['bench-disc'] });
// The discounted merchant: a limited code, a category promotion that never matches, free shipping from 500.00, two methods.
const discountsFile = join(mkdtempSync(join(tmpdir(), 'bench-checkout-')), 'discounts.ndjson');
writeFileSync(discountsFile, [
  { type: 'code', code: 'SAVE10', kind: 'percentage', percentage: 10, usage_limit: 1_000_000_000 },
  { type: 'promotion', id: 'rugs', title: '15 % off rugs', kind: 'percentage', percentage: 15, applies_to: { categories: ['rugs'] } },
  { type: 'promotion', id: 'ship-free', title: 'Free shipping over $500', kind: 'free_shipping', minimum_subtotal: { USD: 500 } },
].map((record) => JSON.stringify(record)).join('\n'));
await new DiscountService(new DiscountStore(db), async () => new Set(['USD'])).importFile('bench-disc', discountsFile);
await new ShippingProfileStore(db).save('bench-disc', parseShippingProfile({
  zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }, { id: 'express', title: 'Express', prices: { USD: 15 } }] }],
}));

// The gateway as a team runs it: the built CLI, its own process, request logs written (to nowhere).
execFileSync(process.execPath, [join(root, 'scripts/pnpm.mjs'), 'exec', 'turbo', 'run', 'build', '--filter=@commerce-gateway/gateway', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []; // a V8 CPU profile of the gateway, written at exit
const serve = spawn(process.execPath, [...profile, join(root, 'apps/gateway/dist/cli.js'), 'serve'], {
  cwd: mkdtempSync(join(tmpdir(), 'bench-checkout-serve-')),
  env: { PUBLIC_BASE_URL: 'http://127.0.0.1', ...process.env, DATABASE_URL: url.toString(), GATEWAY_ENV, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_POOL_SIZE: String(POOL_SIZE) },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const gateway = {
  url: await new Promise<string>((done, fail) => {
    let out = '';
    serve.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) done(found[1]!);
    });
    serve.once('exit', (code) => fail(new Error(`gateway serve exited with ${code}: ${out}`)));
  }),
};
// BENCH_BASELINE: the same plain checkout through another checkout's built gateway, on its own database (its own migrations).
const previousDir = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
const previousUrl = new URL(url.toString());
previousUrl.pathname = `/${name}_prev`;
let previous: { serve: ReturnType<typeof spawn>; client: BenchClient; db: Awaited<ReturnType<typeof openDatabase>> } | undefined;
if (previousDir) {
  await admin.query(`CREATE DATABASE ${name}_prev`);
  const prevServe = spawn(process.execPath, [join(previousDir, 'apps/gateway/dist/cli.js'), 'serve'], {
    cwd: mkdtempSync(join(tmpdir(), 'bench-checkout-prev-')),
    env: { PUBLIC_BASE_URL: 'http://127.0.0.1', ...process.env, DATABASE_URL: previousUrl.toString(), GATEWAY_ENV, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_POOL_SIZE: String(POOL_SIZE) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const prevUrl = await new Promise<string>((done, fail) => {
    let out = '';
    prevServe.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) done(found[1]!);
    });
    prevServe.once('exit', (code) => fail(new Error(`the baseline's gateway serve exited with ${code}: ${out}`)));
  });
  const prevDb = await openDatabase({ url: previousUrl.toString() }); // migrated by the baseline's own serve
  // Its catalog and key written by its own CLI: its schema may predate this checkout's.
  const prevCli = (...args: string[]) =>
    execFileSync(process.execPath, [join(previousDir, 'apps/gateway/dist/cli.js'), ...args], { env: { ...process.env, DATABASE_URL: previousUrl.toString(), LOG_LEVEL: 'warn' }, encoding: 'utf8' });
  prevCli('merchants', 'create', 'bench-http');
  prevCli('catalog', 'import', catalogFile('h'), '--merchant', 'bench-http');
  const prevKey = prevCli('keys', 'create', '--merchant', 'bench-http', '--env', GATEWAY_ENV, '--tier', 'enterprise', '--rpm', '100000000', '--rpd', '1000000000').trim().split('\n').at(-1)!;
  previous = { serve: prevServe, client: new BenchClient(prevUrl, { 'X-ACP-API-Key': prevKey }, CONCURRENCY), db: prevDb };
}
const pool: Pool = new pg.Pool({ connectionString: url.toString(), max: POOL_SIZE });
const client = new BenchClient(gateway.url, { 'X-ACP-API-Key': key }, CONCURRENCY);
const discountClient = new BenchClient(gateway.url, { 'X-ACP-API-Key': discountKey }, CONCURRENCY);
try {
  const address = { name: 'Ada Lovelace', line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

  const plainCheckout = (through: BenchClient) => async () => {
    const items = cart('h').map((item) => ({ product_id: item.productId, quantity: item.quantity }));
    const [created, create] = await timed(() => through.post('/checkout_sessions', { items, shipping_address: address }));
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
    const session = (JSON.parse(created.body) as { checkout_session: { id: string } }).checkout_session;
    const [completed, complete] = await timed(() => through.post(`/checkout_sessions/${session.id}/complete`));
    if (completed.status !== 200) throw new Error(`complete answered ${completed.status}: ${completed.body}`);
    return { create, complete };
  };
  const viaPrevious = previous ? plainCheckout(previous.client) : undefined;
  const viaGateway = async () => {
    const items = cart('h').map((item) => ({ product_id: item.productId, quantity: item.quantity }));
    const [created, create] = await timed(() => client.post('/checkout_sessions', { items, shipping_address: address }));
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
    const session = (JSON.parse(created.body) as { checkout_session: { id: string } }).checkout_session;
    const [completed, complete] = await timed(() => client.post(`/checkout_sessions/${session.id}/complete`));
    if (completed.status !== 200) throw new Error(`complete answered ${completed.status}: ${completed.body}`);
    return { create, complete };
  };
  const withDiscount = async () => {
    const items = cart('d').map((item) => ({ product_id: item.productId, quantity: item.quantity }));
    const body = { items, shipping_address: address, discount_codes: ['SAVE10'], shipping_option_id: 'express' };
    const [created, create] = await timed(() => discountClient.post('/checkout_sessions', body));
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
    const session = (JSON.parse(created.body) as { checkout_session: { id: string; amounts: { discount: number } } }).checkout_session;
    if (!(session.amounts.discount > 0)) throw new Error(`the code did not apply: ${created.body}`);
    const [completed, complete] = await timed(() => discountClient.post(`/checkout_sessions/${session.id}/complete`));
    if (completed.status !== 200) throw new Error(`complete answered ${completed.status}: ${completed.body}`);
    return { create, complete };
  };
  const viaSql = async () => {
    const [sessionId, create] = await timed(() => createSession(pool, 'bench-sql', cart('s')));
    const [, complete] = await timed(() => completeSession(pool, 'bench-sql', sessionId));
    return { create, complete };
  };

  await drive(100, viaGateway); // warm-up: JIT, connection pools, caches
  await drive(100, withDiscount);
  await drive(100, viaSql);
  if (viaPrevious) await drive(100, viaPrevious);
  const results = { gateway: [] as Sample[], discounted: [] as Sample[], sql: [] as Sample[], previous: [] as Sample[] };
  const seconds = { gateway: 0, discounted: 0, sql: 0, previous: 0 };
  const cpu = { gateway: { client: 0, server: 0, postgres: 0 }, discounted: { client: 0, server: 0, postgres: 0 }, sql: { client: 0, server: 0, postgres: 0 }, previous: { client: 0, server: 0, postgres: 0 } };
  const add = (into: CpuReading, more: CpuReading) => ((into.client += more.client), (into.server += more.server), (into.postgres += more.postgres));
  for (let round = 0; round < ROUNDS; round++) {
    const sides = [['gateway', viaGateway, serve.pid], ['discounted', withDiscount, serve.pid], ['sql', viaSql, serve.pid], ...(viaPrevious ? [['previous', viaPrevious, previous!.serve.pid] as const] : [])] as const;
    for (const [side, work, pid] of sides) {
      const before = readCpu(pid);
      const run = await drive(CHECKOUTS, work);
      add(cpu[side], cpuSince(before, pid));
      results[side].push(...run.samples);
      seconds[side] += run.seconds;
    }
  }
  const version = String((await pool.query('SHOW server_version')).rows[0]!.server_version);
  const orders = await db.prisma.order.count();
  const expected = (CHECKOUTS * ROUNDS + 100) * 3;
  if (orders !== expected) throw new Error(`expected ${expected} orders, found ${orders}`);

  const gatewayStats = summarize(results.gateway, seconds.gateway);
  const discountedStats = summarize(results.discounted, seconds.discounted);
  const sqlStats = summarize(results.sql, seconds.sql);
  console.log(`checkout bench — PostgreSQL ${version}, ${CHECKOUTS * ROUNDS} checkouts per side (${ROUNDS} alternating rounds), ${CONCURRENCY} concurrent clients, pool ${POOL_SIZE}, carts of 2 lines`);
  console.log('                                checkouts/s   p50 ms   p99 ms   create p99   complete p99');
  for (const [label, stats] of [['gateway (HTTP)', gatewayStats], ['gateway, code + option', discountedStats], ['baseline (same SQL via pg)', sqlStats]] as const) {
    console.log(`${label.padEnd(30)}${pick(stats.throughput, 12)}${pick(stats.p50, 9)}${pick(stats.p99, 9)}${pick(stats.createP99, 13)}${pick(stats.completeP99, 15)}`);
  }
  // Where the cores went (CPU ms per checkout, from /proc): the bench's own process is the HTTP client
  // on the gateway's side and the pg client on the baseline's.
  const perCheckout = (ms: number) => (ms / (CHECKOUTS * ROUNDS)).toFixed(2).padStart(9);
  console.log('CPU ms per checkout               client   gateway  PostgreSQL');
  console.log(`${'gateway side'.padEnd(30)}${perCheckout(cpu.gateway.client)}${perCheckout(cpu.gateway.server)}${perCheckout(cpu.gateway.postgres)}`);
  console.log(`${'code + option side'.padEnd(30)}${perCheckout(cpu.discounted.client)}${perCheckout(cpu.discounted.server)}${perCheckout(cpu.discounted.postgres)}`);
  console.log(`${'baseline side'.padEnd(30)}${perCheckout(cpu.sql.client)}${perCheckout(cpu.sql.server)}${perCheckout(cpu.sql.postgres)}`);
  console.log(`ratio gateway / baseline: throughput ${(gatewayStats.throughput / sqlStats.throughput).toFixed(2)}×, p99 ${(gatewayStats.p99 / sqlStats.p99).toFixed(2)}×`);
  if (viaPrevious) {
    const previousStats = summarize(results.previous, seconds.previous);
    console.log(`${'BENCH_BASELINE gateway (HTTP)'.padEnd(30)}${pick(previousStats.throughput, 12)}${pick(previousStats.p50, 9)}${pick(previousStats.p99, 9)}${pick(previousStats.createP99, 13)}${pick(previousStats.completeP99, 15)}`);
    console.log(`${'BENCH_BASELINE side (CPU ms)'.padEnd(30)}${perCheckout(cpu.previous.client)}${perCheckout(cpu.previous.server)}${perCheckout(cpu.previous.postgres)}`);
    console.log(`ratio gateway / BENCH_BASELINE gateway: throughput ${(gatewayStats.throughput / previousStats.throughput).toFixed(2)}×, p50 ${(gatewayStats.p50 / previousStats.p50).toFixed(2)}×, p99 ${(gatewayStats.p99 / previousStats.p99).toFixed(2)}×, complete p99 ${(gatewayStats.completeP99 / previousStats.completeP99).toFixed(2)}×`);
  }
  console.log(`ratio code + option / plain checkout: throughput ${(discountedStats.throughput / gatewayStats.throughput).toFixed(2)}×, p99 ${(discountedStats.p99 / gatewayStats.p99).toFixed(2)}× (goal ≥ 0.9× throughput)`);
} finally {
  client.close();
  discountClient.close();
  if (previous) {
    previous.client.close();
    previous.serve.kill('SIGTERM');
    await new Promise((exited) => previous!.serve.once('exit', exited));
    await previous.db.close();
  }
  await pool.end();
  serve.kill('SIGTERM');
  await new Promise((exited) => serve.once('exit', exited));
  await db.close();
  // Let every pool finish disconnecting: FORCE would otherwise kill a closing idle client and crash its pool.
  for (let i = 0; i < 50; i++) {
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`DROP DATABASE IF EXISTS ${name}_prev WITH (FORCE)`);
  await admin.end();
}
