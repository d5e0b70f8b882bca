/**
 * ACP product feeds on a real database: the export validated line by line against the official
 * schema.feed.json, and pushes to a local Feed API that implements openapi.feed.yaml (every
 * request validated against it) — a 429 with Retry-After honoured, and later pushes that send
 * only what changed.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { FeedApiClient, FeedApiError } from '../src/catalog/feed/feed-api-client.js';
import { exportFeed, type FeedProgress } from '../src/catalog/feed/feed-export.js';
import { pushFeed } from '../src/catalog/feed/feed-push.js';
import { FeedStore } from '../src/catalog/feed/feed-store.js';
import type { Product } from '../src/contract/types.js';
import { feedSchemaValidator } from './support/acp-schemas.js';
import { bare, stocked } from './support/checkout.js';
import { startFeedService, type FeedService } from './support/feed-service.js';
import { catalogFile } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let store: FeedStore;
let service: FeedService;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new FeedStore(db);
  service = await startFeedService();
});
afterEach(() => {
  service.requests.length = 0;
  service.scripts.length = 0;
});
afterAll(async () => {
  await service?.close();
  await db?.close();
});

const tee: Product = {
  ...stocked('tee', [
    { sku: 'tee-red-m', price: 19.99, quantity: 10 },
    { sku: 'tee-blue-s', price: 17.5, quantity: 3 },
  ], { title: 'Classic Tee', description: 'A classic cotton tee.', category: 'Apparel > Shirts' }),
  images: [
    { url: 'https://cdn.example/tee-back.jpg', position: 1 },
    { url: 'https://cdn.example/tee.jpg', alt_text: 'Classic Tee front view', position: 0 },
  ],
};
tee.variants[0]!.attributes = { Color: 'Red', Size: 'M' };
tee.variants[0]!.title = 'Red / M';

function catalog(): Product[] {
  return [
    tee,
    bare('mug', 8, 0),
    { ...bare('preorder', 30, 0, 'continue'), title: 'Preorder item' },
    stocked('yen', [{ sku: 'yen-1', price: 1500, currency: 'JPY' }]),
    ...['p1', 'p2', 'p3', 'p4'].map((id) => stocked(id, [{ sku: `${id}-v`, price: 5 }])),
  ];
}

const readLines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('catalog export --format acp-feed', () => {
  it('writes metadata.json and products.jsonl valid against the official schema.feed.json', async () => {
    await importCatalog(db, 'feed-shop', catalogFile(catalog()));
    const outDir = mkdtempSync(join(tmpdir(), 'gw-feed-'));
    const progress: FeedProgress[] = [];
    const result = await exportFeed(store, {
      merchantId: 'feed-shop', outDir, targetCountry: 'US', storefrontUrl: 'https://shop.example', now: new Date('2026-05-01T00:00:00Z'), onProgress: (p) => progress.push(p),
    });
    expect(result).toMatchObject({ products: 8, variants: 9 });
    expect(progress.at(-1)).toEqual({ done: 8, total: 8 });

    const metadata = JSON.parse(readFileSync(join(outDir, 'metadata.json'), 'utf8'));
    const validMetadata = feedSchemaValidator('FeedMetadata');
    expect(validMetadata(metadata), JSON.stringify(validMetadata.errors)).toBe(true);
    expect(metadata).toEqual({ id: 'feed_feed-shop', target_country: 'US', updated_at: '2026-05-01T00:00:00.000Z' });

    const lines = readLines(join(outDir, 'products.jsonl'));
    const validProduct = feedSchemaValidator('Product');
    for (const line of lines) expect(validProduct(line), `${JSON.stringify(line)}: ${JSON.stringify(validProduct.errors)}`).toBe(true);
    const byId = Object.fromEntries(lines.map((line) => [line.id, line]));
    expect(byId.tee).toEqual({
      id: 'tee',
      title: 'Classic Tee',
      description: { plain: 'A classic cotton tee.' },
      url: 'https://shop.example/products/tee',
      media: [
        { type: 'image', url: 'https://cdn.example/tee.jpg', alt_text: 'Classic Tee front view' },
        { type: 'image', url: 'https://cdn.example/tee-back.jpg' },
      ],
      variants: [
        {
          id: 'tee-red-m',
          title: 'Classic Tee - Red / M',
          url: 'https://shop.example/products/tee?variant=tee-red-m',
          price: { amount: 1999, currency: 'USD' },
          availability: { available: true, status: 'in_stock' },
          categories: [{ value: 'Apparel > Shirts', taxonomy: 'merchant' }],
          seller: { name: 'feed-shop' },
          variant_options: [{ name: 'Color', value: 'Red' }, { name: 'Size', value: 'M' }],
        },
        expect.objectContaining({ id: 'tee-blue-s', price: { amount: 1750, currency: 'USD' }, availability: { available: true, status: 'limited_stock' } }),
      ],
    });
    expect(byId.mug!.variants).toEqual([expect.objectContaining({ id: 'mug', price: { amount: 800, currency: 'USD' }, availability: { available: false, status: 'out_of_stock' } })]);
    expect(byId.preorder!.variants).toEqual([expect.objectContaining({ availability: { available: true, status: 'backorder' } })]);
    expect(byId.yen!.variants).toEqual([expect.objectContaining({ price: { amount: 1500, currency: 'JPY' } })]);
  });

  it('leaves URLs out without a storefront base, and refuses an unknown merchant', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'gw-feed-'));
    await exportFeed(store, { merchantId: 'feed-shop', outDir });
    const lines = readLines(join(outDir, 'products.jsonl'));
    expect(lines.some((line) => 'url' in line || (line.variants as object[]).some((v) => 'url' in v))).toBe(false);
    await expect(exportFeed(store, { merchantId: 'nobody', outDir })).rejects.toThrow('no merchant "nobody"');
  });
});

describe('catalog export: each file through a temporary file and a rename', () => {
  const FILES = ['metadata.json', 'products.jsonl'];

  it('replaces a symlink planted at DIR/products.jsonl or DIR/metadata.json, leaving what it points at untouched', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'gw-feed-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'gw-feed-elsewhere-'));
    for (const name of FILES) {
      writeFileSync(join(elsewhere, name), 'not the feed\'s\n');
      symlinkSync(join(elsewhere, name), join(outDir, name));
    }
    await exportFeed(store, { merchantId: 'feed-shop', outDir });
    for (const name of FILES) {
      expect(readFileSync(join(elsewhere, name), 'utf8')).toBe('not the feed\'s\n');
      expect(lstatSync(join(outDir, name)).isFile()).toBe(true);
      expect(lstatSync(join(outDir, name)).mode & 0o777).toBe(0o600); // src/kernel/files/replace-file.ts: private, as customers export --out
    }
    expect(readLines(join(outDir, 'products.jsonl'))).toHaveLength(8);
    expect(JSON.parse(readFileSync(join(outDir, 'metadata.json'), 'utf8'))).toMatchObject({ id: 'feed_feed-shop' });
    expect(readdirSync(outDir).sort()).toEqual(FILES);
  });

  it.each([
    ['reading the catalog is interrupted', () => {}, 'interrupted'],
    ['metadata.json cannot be replaced (a directory is in its place)', (outDir: string) => {
      rmSync(join(outDir, 'metadata.json'));
      mkdirSync(join(outDir, 'metadata.json'));
    }, /metadata\.json exists and is not a file; the feed is not written over it$/],
  ])('leaves the previous feed as it was, and no temporary file, when %s', async (_name, prepare, error) => {
    const outDir = mkdtempSync(join(tmpdir(), 'gw-feed-'));
    await exportFeed(store, { merchantId: 'feed-shop', outDir, feedId: 'before' });
    prepare(outDir);
    const files = FILES.filter((name) => lstatSync(join(outDir, name)).isFile());
    const before = files.map((name) => readFileSync(join(outDir, name), 'utf8'));
    const interrupt = (p: FeedProgress) => {
      if (p.done > 0) throw new Error('interrupted');
    };
    await expect(exportFeed(store, { merchantId: 'feed-shop', outDir, feedId: 'after', onProgress: interrupt })).rejects.toThrow(error);
    expect(readdirSync(outDir).sort()).toEqual(FILES);
    expect(files.map((name) => readFileSync(join(outDir, name), 'utf8'))).toEqual(before);
  });
});

describe('catalog push-feed', () => {
  const client = (options: Partial<ConstructorParameters<typeof FeedApiClient>[0]> = {}) =>
    new FeedApiClient({ baseUrl: `${service.url}/`, token: service.token, allowPrivateTargets: true, backoffMs: 20, ...options });
  const patches = () => service.requests.filter((r) => r.method === 'PATCH');
  const sentIds = () => patches().flatMap((r) => (r.body as { products: { id: string }[] }).products.map((p) => p.id)).sort();

  it('creates the feed, sends everything in batches, honours Retry-After on a 429, then sends only what changed', async () => {
    let throttled = false;
    service.scripts.push((req, res) => {
      if (req.method !== 'PATCH' || throttled) return false;
      throttled = true;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ type: 'invalid_request', code: 'rate_limited', message: 'Slow down' }));
      return true;
    });
    const first = await pushFeed(store, client(), { merchantId: 'feed-shop', targetUrl: service.url, targetCountry: 'US', storefrontUrl: 'https://shop.example', batchSize: 3 });
    expect(first).toMatchObject({ created: true, sent: 8, unchanged: 0, discontinued: 0, batches: 3 });
    expect(service.requests.map((r) => `${r.method} ${r.operation}`)).toEqual(['POST /feeds', ...Array(4).fill('PATCH /feeds/{id}/products')]);
    expect(service.requests[0]!.body).toEqual({ target_country: 'US' });
    const [throttledPatch, retry] = patches();
    expect(retry!.at - throttledPatch!.at).toBeGreaterThanOrEqual(950);
    expect(retry!.headers['idempotency-key']).toBe(throttledPatch!.headers['idempotency-key']);
    for (const request of service.requests) expect(request.headers).toMatchObject({ authorization: `Bearer ${service.token}`, 'api-version': '2026-04-17' });
    expect(service.invalid).toEqual([]);
    expect(service.invalidResponses).toEqual([]);
    // What the agent now holds is exactly the export.
    const outDir = mkdtempSync(join(tmpdir(), 'gw-feed-'));
    await exportFeed(store, { merchantId: 'feed-shop', outDir, storefrontUrl: 'https://shop.example' });
    const held = service.feeds.get(first.feedId)!.products;
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(readLines(join(outDir, 'products.jsonl')).map((p) => [p.id, p])));

    // A change, an addition and a deletion: the second push sends those three only.
    service.requests.length = 0;
    await importCatalog(db, 'feed-shop', catalogFile([bare('mug', 9.5, 4), stocked('new-one', [{ sku: 'new-one-v', price: 1 }])]));
    await db.prisma.product.delete({ where: { merchantId_id: { merchantId: 'feed-shop', id: 'p1' } } });
    const second = await pushFeed(store, client(), { merchantId: 'feed-shop', targetUrl: service.url, storefrontUrl: 'https://shop.example', batchSize: 3 });
    expect(second).toMatchObject({ feedId: first.feedId, created: false, sent: 2, unchanged: 6, discontinued: 1, batches: 1 });
    expect(service.requests.map((r) => r.method)).toEqual(['PATCH']);
    expect(sentIds()).toEqual(['mug', 'new-one', 'p1']);
    expect(held.get('mug')).toMatchObject({ variants: [{ price: { amount: 950, currency: 'USD' }, availability: { available: true, status: 'limited_stock' } }] });
    expect(held.get('p1')).toMatchObject({ id: 'p1', variants: [{ id: 'p1-v', availability: { available: false, status: 'discontinued' } }] });
    expect(service.invalid).toEqual([]);

    // Nothing changed: nothing is sent (the deleted product is not sent again).
    service.requests.length = 0;
    const third = await pushFeed(store, client(), { merchantId: 'feed-shop', targetUrl: service.url, storefrontUrl: 'https://shop.example', batchSize: 3 });
    expect(third).toMatchObject({ sent: 0, discontinued: 0, batches: 0, unchanged: 8 });
    expect(service.requests).toEqual([]);
  }, 60_000);

  it('keeps state per target URL, and --new-feed starts over with a new feed', async () => {
    const again = await pushFeed(store, client(), { merchantId: 'feed-shop', targetUrl: service.url, storefrontUrl: 'https://shop.example', newFeed: true });
    expect(again).toMatchObject({ created: true, sent: 8, batches: 1 });
    expect(service.requests.map((r) => r.method)).toEqual(['POST', 'PATCH']);
    const other = await pushFeed(store, new FeedApiClient({ baseUrl: `${service.url}/`, token: service.token, allowPrivateTargets: true }), { merchantId: 'feed-shop', targetUrl: `${service.url}/`, storefrontUrl: 'https://shop.example' });
    expect(other).toMatchObject({ created: false, sent: 0 }); // the same target, trailing slash or not
  });

  it('retries 5xx with backoff, gives up on a 4xx at once, and reports a feed that is gone', async () => {
    let failures = 2;
    service.scripts.push((req, res) => {
      if (req.method !== 'POST' || failures-- <= 0) return false;
      res.writeHead(503).end();
      return true;
    });
    await pushFeed(store, client(), { merchantId: 'feed-shop', targetUrl: `${service.url}/five`, storefrontUrl: 'https://x.example' }).catch(() => {});
    expect(service.requests.filter((r) => r.method === 'POST')).toHaveLength(3);

    service.requests.length = 0;
    await expect(pushFeed(store, client({ token: 'wrong' }), { merchantId: 'feed-shop', targetUrl: `${service.url}/four`, newFeed: true }))
      .rejects.toMatchObject({ name: 'FeedApiError', status: 401 });
    expect(service.requests).toHaveLength(1);

    service.feeds.clear();
    const gone = pushFeed(store, client(), { merchantId: 'feed-shop', targetUrl: service.url, storefrontUrl: 'https://elsewhere.example' });
    await expect(gone).rejects.toBeInstanceOf(FeedApiError);
    await expect(gone).rejects.toMatchObject({ status: 404, code: 'feed_not_found' });
  });
});

describe('a 50,000-product catalog', () => {
  it('exports page by page with progress, every line valid', async () => {
    // A database of its own: on PGlite the bulk INSERT stalled when it shared the one the pushes used.
    const big = await createTestDatabase();
    try {
      await exportBig(big, new FeedStore(big));
    } finally {
      await big.close();
    }
  }, 300_000);
});

async function exportBig(db: TestDatabase, store: FeedStore): Promise<void> {
  {
    const merchantId = 'big-shop';
    await db.prisma.merchant.create({ data: { id: merchantId, name: 'Big Shop' } });
    await db.prisma.$executeRawUnsafe(`
      INSERT INTO products (merchant_id, id, title, description, vendor, category, price, currency, tags, attributes, quantity, policy, updated_at)
      SELECT '${merchantId}', 'p' || lpad(n::text, 6, '0'), 'Product ' || n, 'Description ' || n, 'Acme', 'Things > Stuff', 1 + (n % 100) * 0.25, 'USD', '{}', '{}', n % 7, 'deny', now()
      FROM generate_series(1, 50000) AS n`);
    await db.prisma.$executeRawUnsafe(`
      INSERT INTO variants (merchant_id, product_id, sku, position, title, price, currency, attributes, quantity, policy)
      SELECT '${merchantId}', 'p' || lpad(n::text, 6, '0'), 'sku-' || n, 0, 'Size ' || (n % 3), 1 + (n % 100) * 0.25, 'USD', json_build_object('Size', (n % 3)::text), n % 9, 'deny'
      FROM generate_series(1, 50000) AS n WHERE n % 2 = 0`);
    const outDir = mkdtempSync(join(tmpdir(), 'gw-feed-big-'));
    const progress: FeedProgress[] = [];
    const result = await exportFeed(store, { merchantId, outDir, storefrontUrl: 'https://big.example', onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ products: 50_000, variants: 50_000 });
    expect(progress.length).toBeGreaterThanOrEqual(100); // one report per page of 500
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(progress.at(-1)).toEqual({ done: 50_000, total: 50_000 });
    const validProduct = feedSchemaValidator('Product');
    const lines = readLines(join(outDir, 'products.jsonl'));
    expect(lines).toHaveLength(50_000);
    expect(lines.filter((line) => !validProduct(line))).toEqual([]);
    expect(lines[1]).toMatchObject({ id: 'p000002', variants: [{ id: 'sku-2', title: 'Product 2 - Size 2', price: { amount: 150, currency: 'USD' }, variant_options: [{ name: 'Size', value: '2' }] }] });
  }
}
