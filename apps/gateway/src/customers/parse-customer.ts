/**
 * One record of a customers file (docs/operating.md, "Customers"), checked field by field: a
 * record that makes no sense is refused with the path of the field it is about, never stored.
 *
 *   {"email":"ada@example.com","name":"Ada Lovelace","phone":"+44 20 7946 0000",
 *    "consent":{"marketing":true,"analytics":false},
 *    "addresses":[{"id":"home","line1":"12 Main St","city":"London","postal_code":"N1 9GU","country":"GB"}]}
 */
import type { Address } from '../contract/types.js';
import { isCountryCode } from '../kernel/iso-countries.js';
import { ADDRESS_FIELDS, addressFingerprint } from './address-fingerprint.js';
import { normalizeEmail, type ConsentInput } from './customer.js';

export class CustomerRecordError extends Error {
  override name = 'CustomerRecordError';
  constructor(
    /** The field, as a path in the record (`email`, `addresses[1].country`). */
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** An address of a record: the id the file gave (kept), the address, and its fingerprint. */
export interface ImportedAddress {
  id?: string | undefined;
  address: Address;
  fingerprint: string;
}

export interface CustomerRecord {
  /** Normalized (trimmed, lower-case). */
  email: string;
  name?: string | undefined;
  phone?: string | undefined;
  consent?: ConsentInput | undefined;
  addresses: ImportedAddress[];
}

type Fields = Record<string, unknown>;

/** An address id a file may give: 1–64 letters, digits, `_` or `-`. */
export const ADDRESS_ID = /^[A-Za-z0-9_-]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_ADDRESSES = 100;

const RECORD_FIELDS = ['email', 'name', 'phone', 'consent', 'addresses'];
const CONSENT_FIELDS = { marketing: 'marketing', analytics: 'analytics', sale_of_data: 'saleOfData' } as const;
const REQUIRED_ADDRESS_FIELDS: readonly string[] = ['line1', 'city', 'country'];

export function parseCustomer(value: unknown): CustomerRecord {
  if (!isObject(value)) throw new CustomerRecordError('(record)', 'must be a JSON object');
  const unknown = Object.keys(value).find((key) => !RECORD_FIELDS.includes(key));
  if (unknown !== undefined) throw new CustomerRecordError(unknown, 'is not a field of a customer');
  const email = typeof value.email === 'string' ? normalizeEmail(value.email) : '';
  if (!EMAIL.test(email) || email.length > 254) throw new CustomerRecordError('email', 'must be an email address (at most 254 characters)');
  return {
    email,
    name: optionalText(value.name, 'name', 200),
    phone: optionalText(value.phone, 'phone', 64),
    consent: consentOf(value.consent),
    addresses: addressesOf(value.addresses),
  };
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalText(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.trim().length > max) throw new CustomerRecordError(field, `must be a non-blank string of at most ${max} characters`);
  return value.trim();
}

function consentOf(value: unknown): ConsentInput | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw new CustomerRecordError('consent', 'must be an object like {"marketing": true, "analytics": false, "sale_of_data": false}');
  const consent: ConsentInput = {};
  for (const [key, given] of Object.entries(value)) {
    if (!Object.hasOwn(CONSENT_FIELDS, key)) throw new CustomerRecordError(`consent.${key}`, 'is not a consent (marketing, analytics, sale_of_data)');
    if (typeof given !== 'boolean') throw new CustomerRecordError(`consent.${key}`, 'must be true or false (leave it out when never given)');
    consent[CONSENT_FIELDS[key as keyof typeof CONSENT_FIELDS]] = given;
  }
  return consent;
}

function addressesOf(value: unknown): ImportedAddress[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ADDRESSES) throw new CustomerRecordError('addresses', `must be a list of at most ${MAX_ADDRESSES} addresses`);
  const addresses = value.map((item, i) => addressOf(item, `addresses[${i}]`));
  addresses.forEach((address, i) => {
    const twin = addresses.findIndex((other) => other.fingerprint === address.fingerprint);
    if (twin < i) throw new CustomerRecordError(`addresses[${i}]`, `is the same address as addresses[${twin}]`);
    const sameId = address.id === undefined ? -1 : addresses.findIndex((other) => other.id === address.id);
    if (sameId !== -1 && sameId < i) throw new CustomerRecordError(`addresses[${i}].id`, `"${address.id}" is also the id of addresses[${sameId}]`);
  });
  return addresses;
}

function addressOf(value: unknown, at: string): ImportedAddress {
  if (!isObject(value)) throw new CustomerRecordError(at, 'must be a JSON object');
  const unknown = Object.keys(value).find((key) => key !== 'id' && !(ADDRESS_FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) throw new CustomerRecordError(`${at}.${unknown}`, 'is not a field of an address');
  const id = value.id;
  if (id !== undefined && (typeof id !== 'string' || !ADDRESS_ID.test(id))) throw new CustomerRecordError(`${at}.id`, 'must be 1 to 64 letters, digits, "_" or "-"');
  const address: Address = {};
  for (const field of ADDRESS_FIELDS) {
    const given = value[field];
    if (given === undefined) {
      if (REQUIRED_ADDRESS_FIELDS.includes(field)) throw new CustomerRecordError(`${at}.${field}`, 'is required');
      continue;
    }
    address[field] = requiredText(given, `${at}.${field}`);
  }
  if (!isCountryCode(address.country!)) {
    throw new CustomerRecordError(`${at}.country`, `${JSON.stringify(value.country)} is not an ISO 3166-1 country`);
  }
  address.country = address.country!.toUpperCase();
  return { ...(id !== undefined ? { id: id as string } : {}), address, fingerprint: addressFingerprint(address) };
}

function requiredText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.trim().length > 200) throw new CustomerRecordError(field, 'must be a non-blank string of at most 200 characters');
  return value.trim();
}
