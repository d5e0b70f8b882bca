/**
 * Customers: a merchant's buyers, known by email. Checkout asks it (in its own transaction when
 * it passes one) for a buyer's saved addresses and remembers buyers at completion; operators
 * import and export customers files (`gateway customers import|export`: every record checked
 * before any is written, all or nothing), and answer data-subject requests: an export of all the
 * merchant holds of an email, and its erasure. Knows nothing of Express.
 */
import { readRecords } from '../kernel/records/record-reader.js';
import type { Address } from '../contract/types.js';
import type { Tx, UnitOfWork } from '../db/transaction.js';
import { InvalidRequestError, NotFoundError } from '../kernel/errors.js';
import { addressFingerprint, tidyAddress } from './address-fingerprint.js';
import type { BuyerRecords } from './buyer-records.js';
import type { BuyerEvents } from './buyer-events.js';
import type { BuyerKey, BuyerSessions } from './buyer-sessions.js';
import { scrubPersonalData } from './personal-data-scrub.js';
import { normalizeEmail, type BuyerDetails, type Customer, type SavedAddress } from './customer.js';
import { customerFileRecord, dataSubjectExport, type CustomerFileRecord, type DataSubjectExport } from './customer-documents.js';
import type { CustomerStore } from './customer-store.js';
import { CustomerRecordError, parseCustomer, type CustomerRecord } from './parse-customer.js';

export class CustomerImportError extends Error {
  override name = 'CustomerImportError';
  constructor(
    readonly line: number | undefined,
    reason: string,
  ) {
    super(line === undefined ? reason : `line ${line}: ${reason}`);
  }
}

/** What an erasure took out, by kind. */
export interface ErasureCounts {
  customers: number;
  addresses: number;
  /** Sessions whose customer, shipping address and protocol state were cleared. */
  checkoutSessions: number;
  /** Orders of those sessions (kept, with their totals, lines and statuses). */
  orders: number;
  /** Stored webhook events scrubbed of the buyer's details. */
  webhookEvents: number;
  idempotentResponses: number;
  /** Discount uses whose email was cleared (still counted). */
  discountRedemptions: number;
}

/** A file larger than this many records is refused. */
const MAX_RECORDS = 100_000;
/** What an address needs to be saved (checkout's REQUIRED_SHIPPING_FIELDS). */
const SAVED_ADDRESS_FIELDS = ['line1', 'city', 'country'] as const;

const blankToUndefined = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

export class CustomerService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly store: CustomerStore,
    /** The buyer's idempotent answers and discount redemptions: idempotency's and discounts' stores, through the port. */
    private readonly buyers: BuyerRecords,
    /** The buyer's checkout sessions and orders: checkout's (checkout/buyer-sessions-store.ts), through the port. */
    private readonly sessions: BuyerSessions,
    /** The stored webhook events: webhooks' (webhooks/webhook-store.ts), through the port. */
    private readonly events: BuyerEvents,
  ) {}

  /** The merchant's customer of that email (any case, spaces around), with saved addresses newest first; null when none. */
  findByEmail(merchantId: string, email: string, tx?: Tx): Promise<Customer | null> {
    return this.store.find(merchantId, normalizeEmail(email), tx);
  }

  /** The saved address of that id if it belongs to THAT customer of THAT merchant; else null (another customer's id is not usable). */
  addressById(merchantId: string, email: string, addressId: string, tx?: Tx): Promise<SavedAddress | null> {
    return this.store.addressById(merchantId, normalizeEmail(email), addressId, tx);
  }

  /** The id of the customer's saved address equal (by fingerprint) to `address`, or null. */
  matchSavedAddress(merchantId: string, email: string, address: Address, tx?: Tx): Promise<string | null> {
    return this.store.addressIdByFingerprint(merchantId, normalizeEmail(email), addressFingerprint(address), tx);
  }

  /**
   * Remembers a buyer in the caller's transaction (checkout's completion): the customer of the
   * email is created or updated (a name or phone given replaces the stored one; a consent given is
   * stored with its time), and the address saved unless an equal one is — its id returned either
   * way. An address without line1, city and country is not saved (addressId null). Concurrent
   * calls for one email yield one customer and one address.
   */
  async remember(tx: Tx, merchantId: string, buyer: BuyerDetails): Promise<{ customerId: string; addressId: string | null }> {
    const email = normalizeEmail(buyer.email);
    if (!email) throw new InvalidRequestError('A customer needs an email', 'email');
    const customerId = await this.store.upsert(tx, merchantId, { email, name: blankToUndefined(buyer.name), phone: blankToUndefined(buyer.phone), consent: buyer.consent });
    const address = buyer.address && tidyAddress(buyer.address);
    if (!address || SAVED_ADDRESS_FIELDS.some((field) => !address[field])) return { customerId, addressId: null };
    return { customerId, addressId: await this.store.saveAddress(tx, merchantId, customerId, address, addressFingerprint(address)) };
  }

  /**
   * Imports a customers file (NDJSON or one JSON array): every record checked first — the first
   * bad one is a CustomerImportError naming its line, and nothing is written — then all of it in
   * one transaction: customers upserted by email, addresses by id when given (an id of another
   * customer of the merchant is refused), else added unless an equal one is saved. The merchant
   * is created if new.
   */
  async importFile(merchantId: string, file: string): Promise<{ customers: number; addresses: number }> {
    const records: { line: number; record: CustomerRecord }[] = [];
    const emails = new Map<string, number>();
    const addressIds = new Map<string, number>();
    for await (const raw of readRecords(file)) {
      if (raw.error !== undefined) throw new CustomerImportError(raw.line, raw.error);
      if (records.length === MAX_RECORDS) throw new CustomerImportError(raw.line, `more than ${MAX_RECORDS.toLocaleString('en')} records`);
      let record: CustomerRecord;
      try {
        record = parseCustomer(raw.value);
      } catch (error) {
        if (error instanceof CustomerRecordError) throw new CustomerImportError(raw.line, error.message);
        throw error;
      }
      const first = emails.get(record.email);
      if (first !== undefined) throw new CustomerImportError(raw.line, `email ${record.email} is also on line ${first}`);
      emails.set(record.email, raw.line);
      record.addresses.forEach(({ id }, i) => {
        if (id === undefined) return;
        const other = addressIds.get(id);
        if (other !== undefined) throw new CustomerImportError(raw.line, `addresses[${i}].id: "${id}" is also an address id on line ${other}`);
        addressIds.set(id, raw.line);
      });
      records.push({ line: raw.line, record });
    }
    if (records.length === 0) throw new CustomerImportError(undefined, 'the file holds no records');
    await this.db.transaction(async (tx) => {
      await this.checkAddressIds(tx, merchantId, records);
      await this.store.ensureMerchant(tx, merchantId);
      for (const { record } of records) {
        const customerId = await this.store.upsert(tx, merchantId, record);
        for (const { id, address, fingerprint } of record.addresses) {
          if (id === undefined) await this.store.saveAddress(tx, merchantId, customerId, address, fingerprint);
          else await this.store.putAddress(tx, merchantId, customerId, id, address, fingerprint);
        }
      }
    });
    return { customers: records.length, addresses: records.reduce((sum, { record }) => sum + record.addresses.length, 0) };
  }

  /** Refuses an address id of another customer, and an id'd address equal to one the customer has saved under another id. */
  private async checkAddressIds(tx: Tx, merchantId: string, records: readonly { line: number; record: CustomerRecord }[]): Promise<void> {
    const withIds = records.filter(({ record }) => record.addresses.some((address) => address.id !== undefined));
    const owners = await this.store.addressOwners(tx, merchantId, withIds.flatMap(({ record }) => record.addresses.flatMap((a) => (a.id === undefined ? [] : [a.id]))));
    const saved = await this.store.savedFingerprints(tx, merchantId, withIds.map(({ record }) => record.email));
    for (const { line, record } of withIds) {
      record.addresses.forEach(({ id, fingerprint }, i) => {
        if (id === undefined) return;
        const owner = owners.get(id);
        if (owner !== undefined && owner !== record.email) throw new CustomerImportError(line, `addresses[${i}].id: "${id}" is the id of another customer's address`);
        const twin = saved.find((s) => s.email === record.email && s.fingerprint === fingerprint && s.id !== id);
        if (twin) throw new CustomerImportError(line, `addresses[${i}]: the same address is saved for ${record.email} as "${twin.id}"`);
      });
    }
  }

  /** Every customer of the merchant as a file record, by email (`importFile` takes them back, address ids kept). */
  async export(merchantId: string): Promise<CustomerFileRecord[]> {
    return (await this.store.all(merchantId)).map(customerFileRecord);
  }

  /** Every customer of the merchant as its id beside its file record, by email (the admin API addresses customers by id). */
  async list(merchantId: string): Promise<({ id: string } & CustomerFileRecord)[]> {
    return (await this.store.all(merchantId)).map((customer) => ({ id: customer.id, ...customerFileRecord(customer) }));
  }

  /** The data-subject export of the merchant's customer of that id (exportData of its email); NotFoundError when none. */
  async exportCustomer(merchantId: string, customerId: string): Promise<DataSubjectExport> {
    return this.exportData(merchantId, await this.emailOf(merchantId, customerId));
  }

  /** Erases the merchant's customer of that id (erase of its email: every protocol's trace); NotFoundError, nothing changed, when none. */
  async eraseCustomer(merchantId: string, customerId: string): Promise<ErasureCounts> {
    return this.erase(merchantId, await this.emailOf(merchantId, customerId));
  }

  private async emailOf(merchantId: string, customerId: string): Promise<string> {
    const email = await this.store.emailOf(merchantId, customerId);
    if (email === null) throw new NotFoundError(`merchant ${merchantId} has no customer ${customerId}`, 'customer_id');
    return email;
  }

  /** Everything the merchant holds of the email: customer, consents, addresses, orders. NotFoundError when nothing. */
  async exportData(merchantId: string, email: string): Promise<DataSubjectExport> {
    const normalized = normalizeEmail(email);
    const customer = await this.store.find(merchantId, normalized);
    const orders = await this.sessions.orders(merchantId, { email: normalized, customerId: customer?.id ?? null });
    if (!customer && orders.length === 0) throw unknownBuyer(merchantId, normalized);
    return dataSubjectExport(normalized, customer, orders);
  }

  /**
   * Erases the buyer of the email from the merchant, in one transaction, whichever protocol they
   * bought through (our API, ACP, UCP, MCP): the customer and its addresses deleted; on the buyer's
   * checkout sessions (by the customer's email, the customer's id, or the buyer a protocol kept:
   * checkout/buyer-sessions-store.ts) customer and shipping address cleared, and the protocol state kept
   * without the buyer (their orders keep totals, lines and statuses); those sessions' and
   * orders' stored webhook events scrubbed; idempotent answers holding them deleted; the email
   * cleared from discount redemptions. The answer counts each. NotFoundError, and nothing changed, when nothing is known of the email.
   */
  async erase(merchantId: string, email: string): Promise<ErasureCounts> {
    const normalized = normalizeEmail(email);
    return this.db.transaction(async (tx) => {
      const buyer: BuyerKey = { email: normalized, customerId: await this.store.idOf(merchantId, normalized, tx) };
      const { sessionIds, orderIds } = await this.sessions.trail(tx, merchantId, buyer);
      const ids = [...sessionIds, ...orderIds];
      const webhookEvents = await this.events.scrubEvents(tx, merchantId, ids, scrubPersonalData);
      // A session's id without its `cs_` also finds the answers about its UCP cart (`cart_…`, the same row).
      const idempotentResponses = await this.buyers.forgetAnswersHolding(tx, merchantId, [...ids, ...sessionIds.flatMap((id) => (id.startsWith('cs_') ? [id.slice(3)] : []))]);
      const discountRedemptions = await this.buyers.anonymizeRedemptions(tx, merchantId, normalized);
      const checkoutSessions = await this.sessions.clearSessions(tx, merchantId, sessionIds);
      const { customers, addresses } = await this.store.delete(tx, merchantId, normalized);
      if (customers + checkoutSessions + discountRedemptions === 0) throw unknownBuyer(merchantId, normalized);
      return { customers, addresses, checkoutSessions, orders: orderIds.length, webhookEvents, idempotentResponses, discountRedemptions };
    });
  }
}

const unknownBuyer = (merchantId: string, email: string) =>
  new NotFoundError(`merchant ${merchantId} has no customer, checkout session or discount use of ${email}`, 'email');
