/**
 * A customer as the domain holds it: a merchant's buyer, known by email (trimmed, lower-case),
 * with the consents they gave and the addresses they shipped to. A consent is true, false, or
 * null when it was never given.
 */
import type { Address } from '../contract/types.js';

export interface Consent {
  marketing: boolean | null;
  analytics: boolean | null;
  saleOfData: boolean | null;
  /** When a consent was last given or withdrawn; null when none ever was. */
  updatedAt: Date | null;
}

/** Consents as a buyer or a file gives them: a field left out keeps what was stored. */
export interface ConsentInput {
  marketing?: boolean;
  analytics?: boolean;
  saleOfData?: boolean;
}

/** An address saved for a customer: `addr_…`, or the id an import gave. */
export interface SavedAddress {
  id: string;
  /** The address's fields as stored (trimmed, country upper-case, blank fields left out). */
  address: Address;
  createdAt: Date;
}

export interface Customer {
  id: string;
  email: string;
  name: string | null;
  phone: string | null;
  consent: Consent;
  /** Newest first. */
  addresses: SavedAddress[];
  createdAt: Date;
  updatedAt: Date;
}

/** What checkout tells about a buyer to remember them (CustomerService.remember). */
export interface BuyerDetails {
  email: string;
  name?: string | undefined;
  phone?: string | undefined;
  consent?: ConsentInput | undefined;
  address?: Address | undefined;
}

/** How an email is compared and stored: trimmed, lower-case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
