/**
 * Product reads come from the catalog read model in memory, and are never staler than the
 * freshness rules allow: a process sees its own writes on the next read, another process's
 * within a second, an import as soon as the importer returns; while its event connection is
 * down (or before it listens) every read goes to the database.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildCatalogService } from '../src/catalog/build-catalog-search.js';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { openDatabase, type Database } from '../src/db/database.js';
import type { Product } from '../src/contract/types.js';
import { SF_ADDRESS, bare, checkoutCalls, stocked, type CheckoutCalls } from './support/checkout.js';
import { runCli } from './support/cli.js';
import { catalogFile, product } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let api: CheckoutCalls;
let key: string;
const onPostgres = () => gateway.db.url !== undefined;

const catalog: Product[] = [
  stocked('chair', [{ quantity: 10 }], { title: 'Oak chair', category: 'Furniture > Chairs', tags: ['Wood', 'oak'] }),
  stocked('sofa', [{ quantity: 3, price: 499 }, { quantity: 0, policy: 'continue', price: 599 }], { title: 'Three-seat sofa', category: 'Furniture > Sofas' }),
  bare('lamp', 25, 4),
  product({ id: 'mug', title: 'Insulated travel mug', category: 'Kitchen', tags: ['Coffee'], price: 19.5, images: [{ url: 'https://img.example/mug.jpg', alt_text: 'A mug', position: 0 }] }),
  product({ id: 'zebra', title: 'Ä zebra print rug', category: 'Rugs', price: 120 }),
];

/** SQL as an operator or another process would run it: another connection (on PGlite, the only one there is). */
async function otherConnection(statements: string[]): Promise<void> {
  if (!gateway.db.url) {
    await gateway.db.prisma.$transaction(async (tx) => {
      for (const sql of statements) await tx.$executeRawUnsafe(sql);
    });
    return;
  }
  const client = new pg.Client({ connectionString: gateway.db.url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const sql of statements) await client.query(sql);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

const notify = (payload: object) => `SELECT pg_notify('catalog_changed', '${JSON.stringify({ source: 'another-process', ...payload })}')`;

async function quantityOf(id: string): Promise<number> {
  const reply = await api.product(id);
  expect(reply.status).toBe(200);
  return reply.body.availability.quantity;
}

/** The quantity of each product a listing or search shows, by id. */
async function listed(path: string): Promise<Record<string, number>> {
  const reply = await fetch(`${gateway.url}${path}`, { headers: { 'X-ACP-API-Key': key } });
  expect(reply.status).toBe(200);
  const body = (await reply.json()) as { items: Product[] };
  return Object.fromEntries(body.items.map((item) => [item.id, item.availability.quantity]));
}

/** How long a change announced by NOTIFY may take to show: well under 1 s idle; CI runs on a busy 2-core machine. */
const FRESHNESS_DEADLINE_MS = 5_000;

/** Polls until `check` holds, or fails after `timeoutMs`: a limit for a busy machine, not a figure asserted. */
const within = (timeoutMs: number, check: () => Promise<boolean>) =>
  expect.poll(check, { timeout: timeoutMs, interval: 10, message: `not seen within ${timeoutMs} ms` }).toBe(true);

beforeAll(async () => {
  gateway = await startTestGateway();
  key = await gateway.createKey({ merchantIds: ['rm'] });
  api = checkoutCalls(gateway.url, key);
  await gateway.importProducts('rm', catalog);
});
afterAll(() => gateway?.close());

describe('the catalog read model', () => {
  it('is live after start-up and answers every read exactly as the database does', async () => {
    expect(gateway.services.catalog.readModel.isLive).toBe(true);
    const fromDatabase = buildCatalogService(gateway.db); // never started: reads the database
    try {
      expect(fromDatabase.readModel.isLive).toBe(false);
      for (const { id } of catalog) expect((await api.product(id)).body).toEqual(await fromDatabase.get('rm', id));
      const queries = [
        { page: 1, pageSize: 10 },
        { page: 2, pageSize: 2 },
        { page: 1, pageSize: 10, category: 'FURNITURE' },
        { page: 1, pageSize: 10, tag: 'wood' },
        { page: 1, pageSize: 10, minPrice: 19.5, maxPrice: 120 },
        { page: 1, pageSize: 10, q: 'travel mug' },
        { page: 9, pageSize: 10 },
      ];
      for (const query of queries) {
        const memory = await gateway.services.catalog.search('rm', query, 'v');
        const database = await fromDatabase.search('rm', query, 'v');
        expect({ ...memory, generated_at: '' }).toEqual({ ...database, generated_at: '' });
      }
      expect((await api.product('nope')).status).toBe(404);
    } finally {
      await fromDatabase.close();
    }
  });

  it('shows a completion\'s stock decrement on the very next read, in search answers and listings too', async () => {
    const before = await quantityOf('chair');
    // The same search and listing asked three times: the third is a remembered answer (one is kept from its second
    // asking, catalog/doorkeeper.ts), which must not outlive the stock.
    const [search, listing] = [() => listed('/acp/products?q=oak%20chair'), () => listed('/acp/products?category=chairs')];
    for (let i = 0; i < 3; i++) expect([(await search()).chair, (await listing()).chair]).toEqual([before, before]);
    const created = await api.create({ items: [{ product_id: 'chair', quantity: 3 }], shipping_address: SF_ADDRESS });
    expect(created.status).toBe(201);
    expect((await api.complete(created.body.checkout_session.id)).status).toBe(200);
    const after = await api.product('chair');
    expect(after.body.availability.quantity).toBe(before - 3);
    expect(after.body.variants[0]!.inventory.quantity).toBe(before - 3);
    expect([(await search()).chair, (await listing()).chair]).toEqual([before - 3, before - 3]);
  });

  it('shows a product without variants sold out on the next read', async () => {
    const created = await api.create({ items: [{ product_id: 'lamp', quantity: 4 }], shipping_address: SF_ADDRESS });
    expect((await api.complete(created.body.checkout_session.id)).status).toBe(200);
    expect((await api.product('lamp')).body.availability).toEqual({ status: 'out_of_stock', quantity: 0, policy: 'deny' });
  });

  it('shows another process\'s committed stock change as soon as its NOTIFY is heard', async () => {
    await otherConnection([
      `UPDATE variants SET quantity = 2 WHERE merchant_id = 'rm' AND sku = 'sofa-v0'`,
      notify({ merchantId: 'rm', ids: ['sofa'], kind: 'stock' }),
    ]);
    // Within a second on an idle machine; the deadline is generous, as a busy CI runner needs.
    await within(FRESHNESS_DEADLINE_MS, async () => (await quantityOf('sofa')) === 2);
  });

  it('shows another process\'s import (a renamed product, a new one) as soon as its NOTIFY is heard, in listings and search too', async () => {
    let other: Database | undefined;
    if (onPostgres()) other = await openDatabase({ url: gateway.db.url, poolSize: 2 }); // its own client, as another process has
    try {
      const kettleSearch = () => gateway.services.catalog.search('rm', { page: 1, pageSize: 10, q: 'kettle' }, 'v');
      expect((await kettleSearch()).items.map((p) => p.id)).not.toContain('kettle'); // an answer remembered before the import
      const products = [product({ id: 'mug', title: 'Enamel camping mug', category: 'Kitchen' }), product({ id: 'kettle', title: 'Whistling kettle', category: 'Kitchen' })];
      if (other) await importCatalog(other, 'rm', catalogFile(products));
      else {
        // PGlite opens in one process only: the other writer is SQL on its connection, announced as another process would.
        await otherConnection([`UPDATE products SET title = 'Enamel camping mug' WHERE merchant_id = 'rm' AND id = 'mug'`, notify({ merchantId: 'rm', ids: ['mug'] })]);
        await importCatalog(gateway.db, 'rm', catalogFile(products.slice(1)));
      }
      await within(FRESHNESS_DEADLINE_MS, async () => (await api.product('mug')).body.title === 'Enamel camping mug');
      expect((await api.product('kettle')).status).toBe(200);
      const listed = await gateway.services.catalog.search('rm', { page: 1, pageSize: 10, category: 'kitchen' }, 'v');
      expect(listed.items.map((p) => p.id)).toEqual(['mug', 'kettle']);
      expect((await kettleSearch()).items[0]?.id).toBe('kettle');
    } finally {
      await other?.close();
    }
  });

  it('shows an import by the CLI as soon as the CLI returns', async (context) => {
    if (!onPostgres()) context.skip(); // PGlite's data directory is open in one process only
    const file = catalogFile([product({ id: 'desk', title: 'Standing desk', category: 'Furniture > Desks' })]);
    // Merchant rm exists (the import of beforeAll made it): the CLI imports into it.
    const imported = await runCli(['catalog', 'import', file, '--merchant', 'rm'], { DATABASE_URL: gateway.db.url });
    expect(imported.code).toBe(0);
    const reply = await api.product('desk');
    expect(reply.status).toBe(200);
    expect(reply.body.title).toBe('Standing desk');
  });

  it('reads the database, not memory, while its event connection is down, and memory again once reloaded', async (context) => {
    if (!onPostgres()) context.skip(); // PGlite's listen has no connection to lose
    const readModel = gateway.services.catalog.readModel;
    await otherConnection([
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
    ]);
    await expect.poll(() => readModel.isLive).toBe(false);
    // No NOTIFY: only a read of the database can see this.
    await otherConnection([`UPDATE variants SET quantity = 7 WHERE merchant_id = 'rm' AND sku = 'sofa-v0'`]);
    expect(await quantityOf('sofa')).toBe(7);
    await expect.poll(() => readModel.isLive, { timeout: 5_000 }).toBe(true);
    await otherConnection([`UPDATE variants SET quantity = 6 WHERE merchant_id = 'rm' AND sku = 'sofa-v0'`]);
    expect(await quantityOf('sofa')).toBe(7); // memory again: the silent change is not heard…
    await otherConnection([notify({ merchantId: 'rm', ids: ['sofa'], kind: 'stock' })]);
    await within(FRESHNESS_DEADLINE_MS, async () => (await quantityOf('sofa')) === 6); // …until announced
  });

  it('heals by itself after a failed update: degraded in /readyz and /metrics meanwhile, live again soon after the database answers', async () => {
    const readModel = gateway.services.catalog.readModel;
    const readyz = async () => (await fetch(`${gateway.url}/readyz`)).json() as Promise<{ status: string; checks: Record<string, string>; details?: Record<string, string> }>;
    const degradedGauge = async () => /^gateway_catalog_degraded (\d)$/m.exec(await (await fetch(`${gateway.url}/metrics`)).text())?.[1];
    expect(readModel.isLive).toBe(true);
    expect(await degradedGauge()).toBe('0');
    // The model's own log of each failed reload (a private field: the test's only window on the retries).
    const reloadFailures = vi.spyOn((readModel as unknown as { logger: { error: (...args: unknown[]) => void } }).logger, 'error');
    // The update's read fails (as under a pool timeout): the products table is away for a while.
    await otherConnection(['ALTER TABLE products RENAME TO products_away']);
    try {
      await otherConnection([notify({ merchantId: 'rm', ids: ['mug'] })]);
      await expect.poll(() => readModel.isLive, { timeout: 10_000 }).toBe(false);
      await expect.poll(async () => (await readyz()).checks.catalog, { timeout: 10_000 }).toBe('degraded');
      const report = await readyz();
      expect(report.status).toBe('ready'); // reads are still answered, from the database
      expect(report.details?.catalog).toBe('degraded (reading from the database)');
      expect(await degradedGauge()).toBe('1');
      // Several reloads fail meanwhile (each logged as it fails): it stays out of service through them.
      await expect.poll(() => reloadFailures.mock.calls.filter((call) => call[1] === 'catalog reload failed; retrying').length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      expect(readModel.isLive).toBe(false);
    } finally {
      await otherConnection(['ALTER TABLE products_away RENAME TO products']);
    }
    await within(15_000, async () => readModel.isLive); // the backoff tops out at 2 s
    await expect.poll(async () => (await readyz()).checks.catalog, { timeout: 5_000 }).toBe('ok');
    expect((await readyz()).details?.catalog).toBeUndefined();
    expect(await degradedGauge()).toBe('0');
    expect((await api.product('mug')).status).toBe(200);
  });

  it('reads the database until it has loaded and listens', async () => {
    const service = buildCatalogService(gateway.db, { config: { databaseUrl: gateway.db.url } });
    try {
      await otherConnection([`UPDATE products SET title = 'Silent rename' WHERE merchant_id = 'rm' AND id = 'zebra'`]);
      expect((await service.get('rm', 'zebra')).title).toBe('Silent rename');
    } finally {
      await service.close();
    }
  });
});
