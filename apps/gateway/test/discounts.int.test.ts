/**
 * A merchant's discounts on the database (PostgreSQL when TEST_DATABASE_URL is set, else PGlite):
 * a file imported all or nothing, exported as given, the merchant's currencies held, and
 * redemptions counted at most to a code's limit — on PostgreSQL by 50 concurrent completions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import { DiscountService } from '../src/discounts/discount-service.js';
import { DiscountStore } from '../src/discounts/discount-store.js';
import { buildServices, type Services } from '../src/services.js';
import { catalogFile, product } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { sql } from '../src/db/statement.js';

let db: TestDatabase;
let services: Services;
let discounts: DiscountService;
let store: DiscountStore;

beforeAll(async () => {
  db = await createTestDatabase();
  services = buildServices(db, { config: { env: 'development', webhookAllowPrivateTargets: true } });
  discounts = services.discounts;
  store = new DiscountStore(db);
  await importCatalog(db, 'shop-d', catalogFile([product({ id: 'chair', currency: 'USD' }), product({ id: 'mug', currency: 'EUR' })]));
}, 120_000);
afterAll(async () => {
  await services?.catalog.close();
  await db?.close();
});

const RECORDS = [
  { type: 'code', code: 'Save10', kind: 'percentage', percentage: 10, usage_limit: 10 },
  { type: 'code', code: '5OFF', kind: 'fixed', amounts: { USD: 5, EUR: 4.5 }, minimum_subtotal: { USD: 25 } },
  { type: 'promotion', id: 'ship-free', title: 'Free shipping over $50', kind: 'free_shipping', minimum_subtotal: { USD: 50 } },
];

describe('discounts of a merchant', () => {
  it('imports codes and promotions, exports them as given, and reads them back as the domain holds them', async () => {
    expect(await discounts.importFile('shop-d', catalogFile(RECORDS, 'discounts.ndjson'))).toEqual({ codes: 2, promotions: 1 });
    expect(await discounts.export('shop-d')).toEqual([RECORDS[1], RECORDS[0], RECORDS[2]]); // codes by code (5OFF < SAVE10), then promotions
    const held = await discounts.discountsOf('shop-d');
    expect(held.codes.map((c) => [c.code, c.usageLimit])).toEqual([['5OFF', undefined], ['Save10', 10]]);
    expect(held.promotions.map((p) => p.effect.kind)).toEqual(['free_shipping']);
    // A second import replaces by code (case-insensitively) and keeps the rest.
    await discounts.importFile('shop-d', catalogFile([{ type: 'code', code: 'SAVE10', kind: 'percentage', percentage: 15 }], 'again.ndjson'));
    expect((await discounts.discountsOf('shop-d')).codes.map((c) => [c.code, c.value])).toEqual([
      ['5OFF', { kind: 'fixed', amounts: { USD: 500n, EUR: 450n } }],
      ['SAVE10', { kind: 'percentage', basisPoints: 1500 }],
    ]);
  });

  it.each([
    [[RECORDS[0], { type: 'code', code: 'GBP', kind: 'fixed', amounts: { GBP: 5 } }], /^line 2: amounts\.GBP: the merchant sells in EUR, USD, not GBP$/],
    [[RECORDS[0], { type: 'code', code: 'save10', kind: 'percentage', percentage: 5 }], /^line 2: code SAVE10 is also on line 1$/],
    [[RECORDS[0], '{"type":'], /^line 2: invalid JSON/],
    [[RECORDS[0], { type: 'code', code: 'X', kind: 'percentage', percentage: 101 }], /^line 2: percentage: must be a number above 0 and at most 100$/],
  ])('refuses a bad file with its line, and writes nothing of it (%#)', async (lines, message) => {
    const before = await discounts.export('shop-d');
    await expect(discounts.importFile('shop-d', catalogFile(lines as object[], 'bad.ndjson'))).rejects.toThrow(message);
    expect(await discounts.export('shop-d')).toEqual(before);
  });

  it('counts a code\'s redemptions at most to its limit, and each buyer\'s to theirs', async () => {
    await discounts.importFile('shop-r', catalogFile([
      { type: 'code', code: 'TWO', kind: 'percentage', percentage: 5, usage_limit: 2 },
      { type: 'code', code: 'ONCE', kind: 'percentage', percentage: 5, per_customer_limit: 1 },
    ], 'r.ndjson'));
    const redeem = (keys: string[], order: string, email?: string) => db.transaction((tx) => store.redeem(tx, 'shop-r', keys, order, email));
    expect(await redeem(['TWO', 'ONCE'], 'o1', 'Ann@example.com')).toEqual([]);
    expect(await redeem(['TWO', 'ONCE'], 'o2', 'ann@example.com ')).toEqual(['ONCE']);
    expect(await redeem(['TWO', 'ONCE'], 'o3', 'bob@example.com')).toEqual(['TWO']);
    expect(Object.fromEntries(await store.usage('shop-r', ['TWO', 'ONCE'], 'ANN@example.com'))).toEqual({ TWO: { total: 2, customer: 2 }, ONCE: { total: 2, customer: 1 } });
    // A redemption rolled back with its completion counts nothing.
    await expect(db.transaction(async (tx) => {
      await store.redeem(tx, 'shop-r', ['ONCE'], 'o4', 'cy@example.com');
      throw new Error('payment declined');
    })).rejects.toThrow('payment declined');
    expect((await store.usage('shop-r', ['ONCE'], 'cy@example.com')).get('ONCE')).toEqual({ total: 2, customer: 0 });
  });

  it.runIf(process.env.TEST_DATABASE_URL)('never over-redeems: 50 concurrent completions of a code limited to 10 → exactly 10 use it', async () => {
    await discounts.importFile('shop-race', catalogFile([{ type: 'code', code: 'TEN', kind: 'fixed', amounts: { USD: 1 }, usage_limit: 10 }], 'race.ndjson'));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        db.transaction(async (tx) => {
          const failed = await store.redeem(tx, 'shop-race', ['TEN'], `race-${i}`, `buyer${i}@example.com`);
          await tx.query(sql`SELECT pg_sleep(0.01)`); // the rest of a completion, holding the row lock
          return failed.length === 0;
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
    expect((await store.usage('shop-race', ['TEN'], undefined)).get('TEN')!.total).toBe(10);
    const [uses] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM discount_redemptions WHERE merchant_id = 'shop-race'`);
    expect(uses!.n).toBe(10);
  }, 60_000);
});
