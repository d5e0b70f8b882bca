/**
 * When two addresses are the same address: each field trimmed, inner whitespace collapsed,
 * case-folded (the country upper-case), blank fields dropped — so "12  Main St" and "12 main st"
 * are one. The fingerprint is that normalized address as text, stored beside each saved address
 * and unique per customer.
 */
import type { Address } from '../contract/types.js';

/** The address fields, in the order the fingerprint lists them. */
export const ADDRESS_FIELDS = ['name', 'line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const;

export type AddressField = (typeof ADDRESS_FIELDS)[number];

const fold = (value: string) => value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** The normalized address as JSON text: `{"line1":"12 main st","city":"springfield","country":"US"}`. */
export function addressFingerprint(address: Address): string {
  const normalized: Partial<Record<AddressField, string>> = {};
  for (const field of ADDRESS_FIELDS) {
    const value = address[field];
    if (typeof value !== 'string') continue;
    const folded = field === 'country' ? fold(value).toUpperCase() : fold(value);
    if (folded !== '') normalized[field] = folded;
  }
  return JSON.stringify(normalized);
}

/** The address as it is stored and shown: each field trimmed, the country upper-case, blank fields left out. */
export function tidyAddress(address: Address): Address {
  const tidy: Address = {};
  for (const field of ADDRESS_FIELDS) {
    const value = address[field];
    if (typeof value !== 'string' || value.trim() === '') continue;
    tidy[field] = field === 'country' ? value.trim().toUpperCase() : value.trim();
  }
  return tidy;
}
