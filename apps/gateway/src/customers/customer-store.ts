/**
 * The only code that reads and writes `customers` and `customer_addresses`. Every statement
 * names the merchant: a customer, and an address id, exist only within their merchant. Reads run
 * on the driver, or on the caller's transaction when one is given; writes on a transaction.
 */
import type { Address } from '../contract/types.js';
import type { Database } from '../db/database.js';
import { iso, type Sql } from '../db/sql.js';
import { NOW_UTC } from '../db/sql-time.js';
import { sql } from '../db/statement.js';
import type { Tx } from '../db/transaction.js';
import { newId } from '../kernel/ids.js';
import { ensureMerchant } from '../merchants/merchant-store.js';
import type { ConsentInput, Customer, SavedAddress } from './customer.js';

type CustomerRow = {
  id: string;
  email: string;
  name: string | null;
  phone: string | null;
  consent_marketing: boolean | null;
  consent_analytics: boolean | null;
  consent_sale_of_data: boolean | null;
  consent_updated_at: string | null;
  created_at: string;
  updated_at: string;
};

type AddressRow = {
  id: string;
  customer_id: string;
  name: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string | null;
  country: string;
  created_at: string;
};

/** What is stored of a customer's own fields; a field left out keeps its value. */
export interface CustomerFields {
  /** Normalized (customer.ts normalizeEmail). */
  email: string;
  name?: string | undefined;
  phone?: string | undefined;
  consent?: ConsentInput | undefined;
}

const CUSTOMER_COLUMNS = sql`c.id, c.email, c.name, c.phone, c.consent_marketing, c.consent_analytics, c.consent_sale_of_data,
  ${iso(sql`c.consent_updated_at`)} AS consent_updated_at, ${iso(sql`c.created_at`)} AS created_at, ${iso(sql`c.updated_at`)} AS updated_at`;
const ADDRESS_COLUMNS = sql`a.id, a.customer_id, a.name, a.line1, a.line2, a.city, a.state, a.postal_code, a.country, ${iso(sql`a.created_at`)} AS created_at`;
/** Newest first; among addresses saved at once (an import), the last given first. */
const NEWEST_FIRST = sql`a.created_at DESC, a.seq DESC`;

const decodeAddress = (row: AddressRow): SavedAddress => {
  const address: Address = { line1: row.line1, city: row.city, country: row.country.trim() };
  if (row.name !== null) address.name = row.name;
  if (row.line2 !== null) address.line2 = row.line2;
  if (row.state !== null) address.state = row.state;
  if (row.postal_code !== null) address.postal_code = row.postal_code;
  return { id: row.id, address: orderedAddress(address), createdAt: new Date(row.created_at) };
};

/** The address's fields in the contract's order (name, line1, line2, city, state, postal_code, country). */
function orderedAddress(address: Address): Address {
  const { name, line1, line2, city, state, postal_code, country } = address;
  return Object.fromEntries(Object.entries({ name, line1, line2, city, state, postal_code, country }).filter(([, value]) => value !== undefined)) as Address;
}

const decodeCustomer = (row: CustomerRow, addresses: SavedAddress[]): Customer => ({
  id: row.id,
  email: row.email,
  name: row.name,
  phone: row.phone,
  consent: {
    marketing: row.consent_marketing,
    analytics: row.consent_analytics,
    saleOfData: row.consent_sale_of_data,
    updatedAt: row.consent_updated_at ? new Date(row.consent_updated_at) : null,
  },
  addresses,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

export class CustomerStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  /** The customer of that email (normalized) with its addresses, newest first; null when the merchant has none. */
  async find(merchantId: string, email: string, tx?: Tx): Promise<Customer | null> {
    const on: Sql = tx ?? this.db.sql;
    const [row] = await on.query<CustomerRow>(sql`SELECT ${CUSTOMER_COLUMNS} FROM customers AS c WHERE c.merchant_id = ${merchantId} AND c.email = ${email}`);
    if (!row) return null;
    const addresses = await on.query<AddressRow>(sql`
      SELECT ${ADDRESS_COLUMNS} FROM customer_addresses AS a
      WHERE a.merchant_id = ${merchantId} AND a.customer_id = ${row.id} ORDER BY ${NEWEST_FIRST}`);
    return decodeCustomer(row, addresses.map(decodeAddress));
  }

  /** Every customer of the merchant, by email, each with its addresses oldest first (the order a file gives them in). */
  async all(merchantId: string): Promise<Customer[]> {
    const rows = await this.db.sql.query<CustomerRow>(sql`SELECT ${CUSTOMER_COLUMNS} FROM customers AS c WHERE c.merchant_id = ${merchantId} ORDER BY c.email COLLATE "C"`);
    const addresses = await this.db.sql.query<AddressRow>(sql`
      SELECT ${ADDRESS_COLUMNS} FROM customer_addresses AS a WHERE a.merchant_id = ${merchantId} ORDER BY a.created_at, a.seq`);
    const byCustomer = new Map<string, SavedAddress[]>();
    for (const address of addresses) byCustomer.set(address.customer_id, [...(byCustomer.get(address.customer_id) ?? []), decodeAddress(address)]);
    return rows.map((row) => decodeCustomer(row, byCustomer.get(row.id) ?? []));
  }

  /** The id of the merchant's customer of that (normalized) email; null when it has none. */
  async idOf(merchantId: string, email: string, tx?: Tx): Promise<string | null> {
    const [row] = await (tx ?? this.db.sql).query<{ id: string }>(sql`SELECT c.id FROM customers AS c WHERE c.merchant_id = ${merchantId} AND c.email = ${email}`);
    return row?.id ?? null;
  }

  /** The normalized email of the merchant's customer of that id; null when it has none. */
  async emailOf(merchantId: string, customerId: string): Promise<string | null> {
    const [row] = await this.db.sql.query<{ email: string }>(sql`SELECT c.email FROM customers AS c WHERE c.merchant_id = ${merchantId} AND c.id = ${customerId}`);
    return row?.email ?? null;
  }

  /** The address of that id if it is one of THIS customer's (by normalized email) of THIS merchant; else null. */
  async addressById(merchantId: string, email: string, addressId: string, tx?: Tx): Promise<SavedAddress | null> {
    const [row] = await (tx ?? this.db.sql).query<AddressRow>(sql`
      SELECT ${ADDRESS_COLUMNS} FROM customer_addresses AS a
      JOIN customers AS c ON c.merchant_id = a.merchant_id AND c.id = a.customer_id
      WHERE a.merchant_id = ${merchantId} AND a.id = ${addressId} AND c.email = ${email}`);
    return row ? decodeAddress(row) : null;
  }

  /** The id of the customer's saved address of that fingerprint, or null. */
  async addressIdByFingerprint(merchantId: string, email: string, fingerprint: string, tx?: Tx): Promise<string | null> {
    const [row] = await (tx ?? this.db.sql).query<{ id: string }>(sql`
      SELECT a.id FROM customer_addresses AS a
      JOIN customers AS c ON c.merchant_id = a.merchant_id AND c.id = a.customer_id
      WHERE a.merchant_id = ${merchantId} AND c.email = ${email} AND a.fingerprint = ${fingerprint}`);
    return row?.id ?? null;
  }

  /** Creates the merchant if new (as the other operator imports do), through the merchants' own statement. */
  ensureMerchant(tx: Tx, merchantId: string): Promise<void> {
    return ensureMerchant(tx, merchantId);
  }

  /**
   * Creates or updates the customer of that email in one statement (concurrent upserts of one
   * email meet on the unique index and yield one customer): a name or phone given replaces the
   * stored one, a consent given is stored with consent_updated_at. Returns the customer's id.
   */
  async upsert(tx: Tx, merchantId: string, fields: CustomerFields): Promise<string> {
    const consent = fields.consent ?? {};
    const consentGiven = consent.marketing !== undefined || consent.analytics !== undefined || consent.saleOfData !== undefined;
    const [row] = await tx.query<{ id: string }>(sql`
      INSERT INTO customers AS c (merchant_id, id, email, name, phone, consent_marketing, consent_analytics, consent_sale_of_data, consent_updated_at, created_at, updated_at)
      VALUES (${merchantId}, ${newId('cus')}, ${fields.email}, ${fields.name ?? null}::text, ${fields.phone ?? null}::text,
        ${consent.marketing ?? null}::boolean, ${consent.analytics ?? null}::boolean, ${consent.saleOfData ?? null}::boolean,
        CASE WHEN ${consentGiven} THEN ${NOW_UTC} END, ${NOW_UTC}, ${NOW_UTC})
      ON CONFLICT (merchant_id, email) DO UPDATE SET
        name = COALESCE(EXCLUDED.name, c.name),
        phone = COALESCE(EXCLUDED.phone, c.phone),
        consent_marketing = COALESCE(EXCLUDED.consent_marketing, c.consent_marketing),
        consent_analytics = COALESCE(EXCLUDED.consent_analytics, c.consent_analytics),
        consent_sale_of_data = COALESCE(EXCLUDED.consent_sale_of_data, c.consent_sale_of_data),
        consent_updated_at = COALESCE(EXCLUDED.consent_updated_at, c.consent_updated_at),
        updated_at = EXCLUDED.updated_at
      RETURNING c.id`);
    return row!.id;
  }

  /**
   * Saves an address for the customer unless an equal one (same fingerprint) is saved: returns
   * the id of the one saved, new or old. One statement; concurrent saves of one address yield one.
   */
  async saveAddress(tx: Tx, merchantId: string, customerId: string, address: Address, fingerprint: string): Promise<string> {
    const [row] = await tx.query<{ id: string }>(sql`
      INSERT INTO customer_addresses AS a (merchant_id, id, customer_id, name, line1, line2, city, state, postal_code, country, fingerprint, created_at)
      VALUES (${merchantId}, ${newId('addr')}, ${customerId}, ${addressValues(address)}, ${fingerprint}, ${NOW_UTC})
      ON CONFLICT (merchant_id, customer_id, fingerprint) DO UPDATE SET fingerprint = EXCLUDED.fingerprint
      RETURNING a.id`);
    return row!.id;
  }

  /** Writes the address of that id for the customer: added, or its fields replaced (the caller checked the id is this customer's). */
  async putAddress(tx: Tx, merchantId: string, customerId: string, id: string, address: Address, fingerprint: string): Promise<void> {
    await tx.execute(sql`
      INSERT INTO customer_addresses AS a (merchant_id, id, customer_id, name, line1, line2, city, state, postal_code, country, fingerprint, created_at)
      VALUES (${merchantId}, ${id}, ${customerId}, ${addressValues(address)}, ${fingerprint}, ${NOW_UTC})
      ON CONFLICT (merchant_id, id) DO UPDATE SET name = EXCLUDED.name, line1 = EXCLUDED.line1, line2 = EXCLUDED.line2, city = EXCLUDED.city,
        state = EXCLUDED.state, postal_code = EXCLUDED.postal_code, country = EXCLUDED.country, fingerprint = EXCLUDED.fingerprint
      WHERE a.customer_id = EXCLUDED.customer_id`);
  }

  /** The email of the customer each of these address ids belongs to (ids of no address left out). */
  async addressOwners(tx: Tx, merchantId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await tx.query<{ id: string; email: string }>(sql`
      SELECT a.id, c.email FROM customer_addresses AS a JOIN customers AS c ON c.merchant_id = a.merchant_id AND c.id = a.customer_id
      WHERE a.merchant_id = ${merchantId} AND a.id = ANY(${[...ids]}::text[])`);
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  /** The saved addresses (id, fingerprint) of the customers of these emails. */
  async savedFingerprints(tx: Tx, merchantId: string, emails: readonly string[]): Promise<{ email: string; id: string; fingerprint: string }[]> {
    if (emails.length === 0) return [];
    return tx.query(sql`
      SELECT c.email, a.id, a.fingerprint FROM customer_addresses AS a JOIN customers AS c ON c.merchant_id = a.merchant_id AND c.id = a.customer_id
      WHERE a.merchant_id = ${merchantId} AND c.email = ANY(${[...emails]}::text[])`);
  }

  /** Deletes the customer and its addresses; the number of each deleted. */
  async delete(tx: Tx, merchantId: string, email: string): Promise<{ customers: number; addresses: number }> {
    const addresses = await tx.execute(sql`
      DELETE FROM customer_addresses AS a USING customers AS c
      WHERE a.merchant_id = ${merchantId} AND c.merchant_id = a.merchant_id AND c.id = a.customer_id AND c.email = ${email}`);
    const customers = await tx.execute(sql`DELETE FROM customers WHERE merchant_id = ${merchantId} AND email = ${email}`);
    return { customers, addresses };
  }
}

/** The address's columns name … country as parameters (a blank field as NULL). */
function addressValues(address: Address) {
  const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());
  return sql`${text(address.name)}::text, ${text(address.line1)}::text, ${text(address.line2)}::text, ${text(address.city)}::text,
    ${text(address.state)}::text, ${text(address.postal_code)}::text, ${text(address.country)?.toUpperCase() ?? null}::text`;
}
