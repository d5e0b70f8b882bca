/**
 * A merchant's discounts as operators keep them: `gateway discounts import` reads a file of codes
 * and promotions (NDJSON or one JSON array; docs/operating.md, "Discounts"), checks every record
 * before writing any (the first bad one is reported with its line, nothing is written), and adds
 * or replaces them in one transaction; `export` writes them back as they were given.
 *
 * Checkout prices carts with `active` (the merchant's discounts, in memory while changes are heard:
 * `active.listen(db)`) and reads `usage` when a cart asks for codes; completion redeems codes in its
 * own statement (checkout/completion-sql.ts, with discount-store.ts's redemptionCtes).
 */
import { readRecords } from '../kernel/records/record-reader.js';
import { MerchantCache } from '../db/merchant-cache.js';
import type { Tx } from '../db/transaction.js';
import type { CodeUsage } from './apply-discounts.js';
import { codeKey, type MerchantDiscounts } from './discount.js';
import { DISCOUNTS_CHANNEL, type DiscountStore, type StoredRecord } from './discount-store.js';
import { DiscountDefinitionError, parseDiscount } from './parse-discount.js';

export class DiscountImportError extends Error {
  override name = 'DiscountImportError';
  constructor(
    readonly line: number | undefined,
    reason: string,
  ) {
    super(line === undefined ? reason : `line ${line}: ${reason}`);
  }
}

/** A file larger than this many records is refused (a merchant's discounts, not a catalog). */
const MAX_RECORDS = 100_000;

export class DiscountService {
  /** Every merchant's discounts, as checkout prices with them. */
  readonly active: MerchantCache<MerchantDiscounts>;

  constructor(
    private readonly store: DiscountStore,
    /** The currencies the merchant sells in (its catalog's); empty when it has no products yet, then any currency is taken. */
    private readonly soldCurrencies: (merchantId: string) => Promise<ReadonlySet<string>>,
  ) {
    this.active = new MerchantCache(DISCOUNTS_CHANNEL, (merchantId) => this.discountsOf(merchantId));
  }

  /** How often each code (by key) was used, in all and by this buyer. */
  usage(merchantId: string, keys: readonly string[], email: string | undefined, tx?: Tx): Promise<Map<string, CodeUsage>> {
    return this.store.usage(merchantId, keys, email, tx);
  }

  async importFile(merchantId: string, file: string): Promise<{ codes: number; promotions: number }> {
    const currencies = await this.soldCurrencies(merchantId);
    const sold = currencies.size > 0 ? currencies : undefined;
    const records: StoredRecord[] = [];
    const seen = new Map<string, number>();
    for await (const record of readRecords(file)) {
      if (record.error !== undefined) throw new DiscountImportError(record.line, record.error);
      if (records.length === MAX_RECORDS) throw new DiscountImportError(record.line, `more than ${MAX_RECORDS.toLocaleString('en')} records`);
      let parsed;
      try {
        parsed = parseDiscount(record.value, sold);
      } catch (error) {
        if (error instanceof DiscountDefinitionError) throw new DiscountImportError(record.line, error.message);
        throw error;
      }
      const identity = parsed.type === 'code' ? `code ${codeKey(parsed.code.code)}` : `promotion ${parsed.promotion.id}`;
      const first = seen.get(identity);
      if (first !== undefined) throw new DiscountImportError(record.line, `${identity} is also on line ${first}`);
      seen.set(identity, record.line);
      records.push({ raw: record.value as Record<string, unknown>, parsed });
    }
    if (records.length === 0) throw new DiscountImportError(undefined, 'the file holds no records');
    const written = await this.store.upsert(merchantId, records);
    this.active.forget(merchantId);
    return written;
  }

  /**
   * Removes a code (case-insensitively; its redemption count goes with it) or a promotion; the
   * record removed, undefined when the merchant has none such. Orders keep the discounts they
   * were given; an open checkout that named the code finds it unknown at its next change.
   */
  async remove(merchantId: string, what: { code: string } | { promotionId: string }): Promise<Record<string, unknown> | undefined> {
    const removed = await this.store.remove(merchantId, 'code' in what ? { key: codeKey(what.code) } : what);
    if (removed) this.active.forget(merchantId);
    return removed;
  }

  /** The merchant's records as they were imported (a file `import` takes back): codes by code, then promotions in order. */
  async export(merchantId: string): Promise<Record<string, unknown>[]> {
    return (await this.store.records(merchantId)).map(({ raw }) => raw);
  }

  /** What the merchant's discounts are, read back through the same checks. */
  async discountsOf(merchantId: string): Promise<MerchantDiscounts> {
    const codes: MerchantDiscounts['codes'][number][] = [];
    const promotions: MerchantDiscounts['promotions'][number][] = [];
    for (const { raw } of await this.store.records(merchantId)) {
      const parsed = parseDiscount(raw);
      if (parsed.type === 'code') codes.push(parsed.code);
      else promotions.push(parsed.promotion);
    }
    return { codes, promotions };
  }
}
