/**
 * The shipping address and customer as stored: only the contract's fields, unset
 * ones left out (never null), the country upper-cased. And what an address must
 * hold before an order that ships can be completed.
 */
import type { Address, Customer } from '../contract/types.js';

const ADDRESS_FIELDS = ['name', 'line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const;
const CUSTOMER_FIELDS = ['email', 'phone', 'name'] as const;

/** Fields a shipping address needs (non-blank) to complete a session whose items ship. */
export const REQUIRED_SHIPPING_FIELDS = ['line1', 'city', 'country'] as const satisfies readonly (keyof Address)[];

function pick<K extends string>(input: Partial<Record<K, unknown>>, fields: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const field of fields) {
    const value = input[field];
    if (typeof value === 'string') out[field] = value;
  }
  return out;
}

export function normalizeAddress(input: Address): Address {
  const address: Address = pick(input, ADDRESS_FIELDS);
  if (address.country !== undefined) address.country = address.country.toUpperCase();
  return address;
}

const CONSENT_FIELDS = ['marketing', 'analytics', 'sale_of_data'] as const;

export function normalizeCustomer(input: Customer): Customer {
  const customer: Customer = pick(input, CUSTOMER_FIELDS);
  if (input.consent && typeof input.consent === 'object') {
    const consent: NonNullable<Customer['consent']> = {};
    for (const field of CONSENT_FIELDS) if (typeof input.consent[field] === 'boolean') consent[field] = input.consent[field];
    if (Object.keys(consent).length) customer.consent = consent;
  }
  return customer;
}

/** The required fields a shipping address lacks (all of them when there is none). */
export function missingShippingFields(address: Address | null): (typeof REQUIRED_SHIPPING_FIELDS)[number][] {
  return REQUIRED_SHIPPING_FIELDS.filter((field) => !address?.[field]?.trim());
}
