/**
 * UCP 2026-04-08's catalog entities as this gateway produces them (types/product.json,
 * types/variant.json and what they reference): only the fields we fill. Amounts are integer minor
 * units of an ISO 4217 currency (types/amount.json); every produced answer is checked against the
 * official schemas in the tests.
 */

export interface UcpPrice {
  amount: number;
  currency: string;
}

export interface UcpSelectedOption {
  name: string;
  label: string;
}

export interface UcpOptionValue {
  label: string;
  /** get_product only (detail_option_value.json): relative to the effective selections. */
  available?: boolean;
  exists?: boolean;
}

export interface UcpProductOption {
  name: string;
  values: UcpOptionValue[];
}

export interface UcpInputCorrelation {
  id: string;
  match: 'exact' | 'featured';
}

export interface UcpVariant {
  id: string;
  sku: string;
  title: string;
  description: { plain: string };
  url?: string;
  price: UcpPrice;
  availability: { available: boolean; status: 'in_stock' | 'backorder' | 'out_of_stock' };
  options?: UcpSelectedOption[];
  /** lookup_catalog only: which request identifiers resolved to this variant. */
  inputs?: UcpInputCorrelation[];
}

export interface UcpProduct {
  id: string;
  title: string;
  description: { plain: string };
  url?: string;
  categories?: { value: string; taxonomy: string }[];
  price_range: { min: UcpPrice; max: UcpPrice };
  media?: { type: 'image'; url: string; alt_text?: string }[];
  options?: UcpProductOption[];
  /** get_product only: the effective selections. */
  selected?: UcpSelectedOption[];
  variants: UcpVariant[];
  tags?: string[];
  metadata?: Record<string, unknown>;
}

/** A message of a catalog answer (types/message.json). */
export type UcpMessage =
  | { type: 'info'; code?: string; content: string; path?: string }
  | { type: 'warning'; code: string; content: string; path?: string }
  | { type: 'error'; code: string; content: string; severity: 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review' | 'unrecoverable'; path?: string };
