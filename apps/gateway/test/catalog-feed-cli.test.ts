/**
 * `gateway catalog export --format acp-feed`, `gateway catalog push-feed` and `gateway orders
 * update`, run in-process as an operator types them, on a real database (PostgreSQL with
 * TEST_DATABASE_URL, else an embedded data directory).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { catalogCommand } from '../src/cli/commands/catalog.js';
import { ordersCommand } from '../src/cli/commands/orders.js';
import { UsageError } from '../src/cli/output.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { OrderService } from '../src/orders/order-service.js';
import { OrderStore } from '../src/orders/order-store.js';
import { PaymentOperations } from '../src/payments/operations/payment-operations.js';
import { PaymentOperationStore } from '../src/payments/operations/payment-operation-store.js';
import { TestPaymentProvider } from '../src/payments/test-payment-provider.js';
import { OutboxStore } from '../src/webhooks/outbox-store.js';
import { feedSchemaValidator } from './support/acp-schemas.js';
import { stocked } from './support/checkout.js';
import { startFeedService, type FeedService } from './support/feed-service.js';
import { catalogFile } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let pg: TestDatabase | undefined;
let service: FeedService;

beforeAll(async () => {
  const file = catalogFile([stocked('lamp', [{ sku: 'lamp-1', price: 24 }]), stocked('desk', [{ sku: 'desk-1', price: 150 }])]);
  if (process.env.TEST_DATABASE_URL) {
    pg = await createTestDatabase();
    process.env.DATABASE_URL = pg.url;
    await importCatalog(pg, 'cli-feed', file);
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-feed-cli-'));
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dataDir;
    const db = await openDatabase({ dataDir });
    await db.migrate();
    await importCatalog(db, 'cli-feed', file);
    await db.close();
  }
  service = await startFeedService();
});
afterAll(async () => {
  delete process.env.STOREFRONT_URL;
  await service?.close();
  await pg?.close();
});

/** Runs `gateway …args` in-process and returns its stdout lines. */
async function gateway(...args: string[]): Promise<string[]> {
  const program = new Command('gateway').exitOverride().configureOutput({ writeErr: () => {} });
  catalogCommand(program);
  ordersCommand(program);
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(...String(chunk).split('\n').filter(Boolean)), true));
  try {
    await program.parseAsync(args, { from: 'user' });
  } finally {
    spy.mockRestore();
  }
  return lines;
}

describe('gateway catalog export --format acp-feed', () => {
  it('writes the two files, with URLs from STOREFRONT_URL when --base-url is not given', async () => {
    process.env.STOREFRONT_URL = 'https://{merchant_id}.shops.example';
    const out = join(mkdtempSync(join(tmpdir(), 'gw-feed-out-')), 'nested', 'feed');
    const lines = await gateway('catalog', 'export', '--format', 'acp-feed', '--merchant', 'cli-feed', '--out', out, '--country', 'us');
    expect(lines).toEqual([expect.stringMatching(/^exported 2 products \(2 variants\) of merchant cli-feed to .*products\.jsonl and .*metadata\.json in [\d.]+ s$/)]);
    const metadata = JSON.parse(readFileSync(join(out, 'metadata.json'), 'utf8'));
    expect(metadata).toMatchObject({ id: 'feed_cli-feed', target_country: 'US' });
    const products = readFileSync(join(out, 'products.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(products.every((p) => feedSchemaValidator('Product')(p))).toBe(true);
    expect(products[0]).toMatchObject({ id: 'desk', url: 'https://cli-feed.shops.example/products/desk' });
  });

  it.each([
    [['--format', 'csv'], /--format must be one of acp-feed/],
    [['--format', 'acp-feed', '--base-url', 'ftp://x'], /--base-url must be an http\(s\) URL/],
    [['--format', 'acp-feed', '--country', 'USA'], /--country must be an ISO 3166-1 alpha-2 code/],
  ])('refuses %j', async (args, message) => {
    await expect(gateway('catalog', 'export', '--merchant', 'cli-feed', '--out', tmpdir(), ...args)).rejects.toThrow(message);
  });

  it('refuses, in one line, a directory where a feed file goes, and writes nothing', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gw-feed-out-'));
    mkdirSync(join(out, 'products.jsonl'));
    const exporting = gateway('catalog', 'export', '--format', 'acp-feed', '--merchant', 'cli-feed', '--out', out);
    await expect(exporting).rejects.toBeInstanceOf(UsageError);
    await expect(exporting).rejects.toThrow(`${join(out, 'products.jsonl')} exists and is not a file; the feed is not written over it`);
    expect(readdirSync(out)).toEqual(['products.jsonl']);
  });

  it('says so for an unknown merchant', async () => {
    await expect(gateway('catalog', 'export', '--format', 'acp-feed', '--merchant', 'nobody', '--out', tmpdir())).rejects.toThrow('no merchant "nobody"');
  });
});

describe('gateway catalog push-feed', () => {
  it('creates the feed, then updates it sending nothing when nothing changed', async () => {
    const first = await gateway('catalog', 'push-feed', '--merchant', 'cli-feed', '--to', service.url, '--token', service.token, '--country', 'US');
    expect(first).toEqual([expect.stringMatching(/^created feed feed_\w+ at http:\/\/127\.0\.0\.1:\d+: 2 sent \(new or changed\), 0 unchanged, 0 discontinued, 1 batch, in [\d.]+ s$/)]);
    const second = await gateway('catalog', 'push-feed', '--merchant', 'cli-feed', '--to', service.url, '--token', service.token);
    expect(second).toEqual([expect.stringMatching(/^updated feed feed_\w+ at .*: 0 sent \(new or changed\), 2 unchanged, 0 discontinued, 0 batches, in/)]);
    expect(service.invalid).toEqual([]);
  });

  it('takes the token from FEED_API_TOKEN, and says when there is none or it is refused', async () => {
    await expect(gateway('catalog', 'push-feed', '--merchant', 'cli-feed', '--to', `${service.url}/x`)).rejects.toThrow(/--token or FEED_API_TOKEN/);
    process.env.FEED_API_TOKEN = 'not-the-token';
    try {
      await expect(gateway('catalog', 'push-feed', '--merchant', 'cli-feed', '--to', `${service.url}/x`)).rejects.toThrow(/POST \/feeds refused: 401 Bearer token required \(unauthorized\)/);
    } finally {
      delete process.env.FEED_API_TOKEN;
    }
  });

  it('tells to use --new-feed when the feed is gone from the target', async () => {
    service.feeds.clear();
    await expect(gateway('catalog', 'push-feed', '--merchant', 'cli-feed', '--to', service.url, '--token', service.token, '--base-url', 'https://moved.example'))
      .rejects.toThrow(/run again with --new-feed/);
    const again = await gateway('catalog', 'push-feed', '--merchant', 'cli-feed', '--to', service.url, '--token', service.token, '--base-url', 'https://moved.example', '--new-feed');
    expect(again[0]).toMatch(/^created feed .*: 2 sent/);
  });
});

describe('gateway orders update', () => {
  it.each([
    [['--order', 'ord_none', '--status', 'fulfilled'], /No order "ord_none"/],
    [['--order', 'ord_none', '--status', 'shipped'], /--status must be one of fulfilled, canceled, refunded/],
  ])('refuses %j', async (args, message) => {
    await expect(gateway('orders', 'update', '--merchant', 'cli-feed', ...args)).rejects.toThrow(message);
  });

  it('changes the status that GET /orders/{order_id} then reads, and its updated_at', async () => {
    const created = new Date('2026-11-02T14:09:42.000Z');
    await withDb(async (db) => {
      await db.prisma.checkoutSession.create({
        data: {
          id: 'cs_cli_order', merchantId: 'cli-feed', status: 'completed', currency: 'USD', paymentMethod: 'demo_card', clientSecret: 'cs_cli_order_secret',
          shippingMethod: 'standard', shippingAmount: 500n, taxRate: 0, taxAmount: 0n, subtotal: 2400n, total: 2900n, createdAt: created,
          lineItems: { create: [{ position: 0, productId: 'lamp', variantSku: 'lamp-1', quantity: 1, title: 'Lamp', unitAmount: 2400n, subtotal: 2400n, requiresShipping: true, taxable: true }] },
          order: { create: { id: 'ord_cli_order', merchantId: 'cli-feed', currency: 'USD', total: 2900n, createdAt: created, updatedAt: created } },
        },
      });
    });
    expect(await gateway('orders', 'update', '--merchant', 'cli-feed', '--order', 'ord_cli_order', '--status', 'fulfilled')).toEqual(['order ord_cli_order: fulfilled']);
    const order = await withDb((db) => new OrderService(db, new OrderStore(db), new OutboxStore(), new PaymentOperations(new PaymentOperationStore(db), new TestPaymentProvider(), new OrderStore(db))).get('cli-feed', 'ord_cli_order'));
    expect(order).toMatchObject({ id: 'ord_cli_order', status: 'fulfilled', created_at: created.toISOString(), amounts: { subtotal: 24, shipping: 5, total: 29 } });
    expect(Date.parse(order.updated_at)).toBeGreaterThan(created.getTime());
  });

  it('maps refunded to a refund of the rest through the payment provider', async () => {
    expect(await gateway('orders', 'update', '--merchant', 'cli-feed', '--order', 'ord_cli_order', '--status', 'refunded')).toEqual(['order ord_cli_order: refunded']);
    const order = await withDb((db) => new OrderService(db, new OrderStore(db), new OutboxStore(), new PaymentOperations(new PaymentOperationStore(db), new TestPaymentProvider(), new OrderStore(db))).get('cli-feed', 'ord_cli_order'));
    expect(order).toMatchObject({ status: 'refunded', refunded_amount: 29, refunds: [{ amount: 29, reason: 'other' }] });
    await expect(gateway('orders', 'update', '--merchant', 'cli-feed', '--order', 'ord_cli_order', '--status', 'refunded')).rejects.toThrow(/refunded in full/);
  });
});

describe('gateway orders fulfil and refund', () => {
  it('records a fulfillment of some lines with tracking, then a partial refund; refusals name what is wrong', async () => {
    const created = new Date('2026-11-02T15:00:00.000Z');
    await withDb(async (db) => {
      await db.prisma.checkoutSession.create({
        data: {
          id: 'cs_cli_order_2', merchantId: 'cli-feed', status: 'completed', currency: 'USD', paymentMethod: 'demo_card', clientSecret: 'cs_cli_order_2_secret',
          shippingMethod: 'standard', shippingAmount: 500n, taxRate: 0, taxAmount: 0n, subtotal: 4800n, total: 5300n, createdAt: created,
          lineItems: { create: [{ position: 0, productId: 'lamp', variantSku: 'lamp-1', quantity: 2, title: 'Lamp', unitAmount: 2400n, subtotal: 4800n, requiresShipping: true, taxable: true }] },
          order: { create: { id: 'ord_cli_order_2', merchantId: 'cli-feed', currency: 'USD', total: 5300n, createdAt: created, updatedAt: created } },
        },
      });
    });
    const args = ['--merchant', 'cli-feed', '--order', 'ord_cli_order_2'];
    await expect(gateway('orders', 'fulfil', ...args, '--line', '1:3')).rejects.toThrow(/Line 1 has 2 unit\(s\) left to fulfil/);
    await expect(gateway('orders', 'fulfil', ...args, '--line', 'one')).rejects.toThrow(/--line must be <line>:<quantity>/);
    const [fulfilled] = await gateway('orders', 'fulfil', ...args, '--carrier', 'UPS', '--tracking-number', '1Z9', '--tracking-url', 'https://ups.example/1Z9', '--line', '1:1');
    expect(fulfilled).toMatch(/^order ord_cli_order_2: partially_fulfilled \(fulfillment ful_\w+\)$/);
    await expect(gateway('orders', 'refund', ...args, '--reason', 'damaged', '--amount', '60')).rejects.toThrow(/amount 60 is more than what is left to refund: 53 USD/);
    expect(await gateway('orders', 'refund', ...args, '--reason', 'damaged', '--amount', '12.5', '--note', 'dented')).toEqual(['order ord_cli_order_2: partially_fulfilled, refunded 12.5 USD']);
    const order = await withDb((db) => new OrderService(db, new OrderStore(db), new OutboxStore(), new PaymentOperations(new PaymentOperationStore(db), new TestPaymentProvider(), new OrderStore(db))).get('cli-feed', 'ord_cli_order_2'));
    expect(order).toMatchObject({ fulfillments: [{ carrier: 'UPS', tracking_number: '1Z9', tracking_url: 'https://ups.example/1Z9', lines: [{ line: 1, quantity: 1 }] }], refunds: [{ amount: 12.5, reason: 'damaged', note: 'dented' }] });
  });
});

/** The CLI's database, opened for a moment beside it (never while a command runs). */
async function withDb<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const db = pg ?? (await openDatabase({ dataDir: process.env.DATA_DIR! }));
  try {
    return await work(db);
  } finally {
    if (!pg) await db.close();
  }
}
