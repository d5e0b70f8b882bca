/**
 * UCP's postal address (schema.org's PostalAddress names, plus the contact's names and phone) ↔
 * the domain's Address. The recipient's name is `full_name` (2026-01-11), else `first_name` and
 * `last_name` joined; shown back, a name splits at its first space. The phone has no place in the domain's address and is not kept.
 */
import type { Address } from '../../contract/types.js';

export interface UcpPostalAddress {
  street_address?: string;
  extended_address?: string;
  address_locality?: string;
  address_region?: string;
  address_country?: string;
  postal_code?: string;
  first_name?: string;
  last_name?: string;
  /** 2026-01-11 only. */
  full_name?: string;
  phone_number?: string;
}

const defined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && field !== '')) as T;

export function toDomainAddress(address: UcpPostalAddress): Address {
  const name = address.full_name || [address.first_name, address.last_name].filter(Boolean).join(' ');
  return defined({
    name: name || undefined,
    line1: address.street_address,
    line2: address.extended_address,
    city: address.address_locality,
    state: address.address_region,
    postal_code: address.postal_code,
    country: address.address_country,
  });
}

export function toUcpAddress(address: Address): UcpPostalAddress {
  const name = address.name?.trim();
  const space = name ? name.indexOf(' ') : -1;
  return defined({
    street_address: address.line1,
    extended_address: address.line2,
    address_locality: address.city,
    address_region: address.state,
    postal_code: address.postal_code,
    address_country: address.country,
    first_name: name ? (space > 0 ? name.slice(0, space) : name) : undefined,
    last_name: name && space > 0 ? name.slice(space + 1) : undefined,
  });
}
