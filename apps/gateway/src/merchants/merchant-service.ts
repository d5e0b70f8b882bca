/**
 * Merchants: created on purpose (`gateway merchants create`), listed, and checked where an
 * operator names one. Domain errors only.
 */
import { InvalidStateError } from '../kernel/errors.js';
import type { MerchantRecord, MerchantRow, MerchantStore, PagePosition } from './merchant-store.js';

const MERCHANT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export class MerchantService {
  constructor(private readonly store: MerchantStore) {}

  /** The ids among `ids` that are no merchant's (empty when all exist). */
  missing(ids: readonly string[]): Promise<string[]> {
    return this.store.missing(ids);
  }

  exists(id: string): Promise<boolean> {
    return this.store.exists(id);
  }

  /** Creates a merchant; InvalidStateError when the id is taken. */
  async create(id: string, name = id): Promise<void> {
    if (!(await this.createIfNew(id, name))) throw new InvalidStateError(`merchant ${JSON.stringify(id)} exists already`);
  }

  /** Creates a merchant: the new one, or undefined when the id is taken (the admin API answers 409). */
  createIfNew(id: string, name = id): Promise<MerchantRow | undefined> {
    return this.store.create(id, name);
  }

  /** Up to `take` merchants newest first after `position` (the admin API's pages); only `ids` unless undefined. */
  newestFirst(ids: readonly string[] | undefined, position: PagePosition | undefined, take: number): Promise<MerchantRow[]> {
    return this.store.newestFirst(ids, position, take);
  }

  list(): Promise<MerchantRecord[]> {
    return this.store.list();
  }
}

/** Whether `id` is a merchant id: 1–100 letters, digits, `_`, `.`, `-`, starting with a letter or digit. */
export const isMerchantId = (id: string): boolean => MERCHANT_ID.test(id);
