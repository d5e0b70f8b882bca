/**
 * A customer as documents show it: the record of a customers file (what `export` writes and
 * `importFile` takes back, address ids kept), and the data-subject export (everything the
 * merchant holds of a buyer: the customer, consents, addresses and orders).
 */
import type { Address } from '../contract/types.js';
import type { BuyerOrder } from './buyer-sessions.js';
import type { Customer } from './customer.js';

/** A customers file record (docs/operating.md, "Customers"). */
export interface CustomerFileRecord {
  email: string;
  name?: string;
  phone?: string;
  consent?: { marketing?: boolean; analytics?: boolean; sale_of_data?: boolean };
  addresses?: ({ id: string } & Address)[];
}

export interface DataSubjectExport {
  email: string;
  /** Null when the merchant keeps no customer of the email (only orders placed with it). */
  customer: { id: string; email: string; name: string | null; phone: string | null; created_at: string; updated_at: string } | null;
  consent: { marketing: boolean | null; analytics: boolean | null; sale_of_data: boolean | null; updated_at: string | null } | null;
  addresses: ({ id: string; created_at: string } & Address)[];
  /** Newest first; `total` in minor units of `currency`, as text. */
  orders: BuyerOrder[];
}

export function customerFileRecord(customer: Customer): CustomerFileRecord {
  const { marketing, analytics, saleOfData } = customer.consent;
  const consent = {
    ...(marketing !== null ? { marketing } : {}),
    ...(analytics !== null ? { analytics } : {}),
    ...(saleOfData !== null ? { sale_of_data: saleOfData } : {}),
  };
  return {
    email: customer.email,
    ...(customer.name !== null ? { name: customer.name } : {}),
    ...(customer.phone !== null ? { phone: customer.phone } : {}),
    ...(Object.keys(consent).length ? { consent } : {}),
    ...(customer.addresses.length ? { addresses: customer.addresses.map(({ id, address }) => ({ id, ...address })) } : {}),
  };
}

export function dataSubjectExport(email: string, customer: Customer | null, orders: BuyerOrder[]): DataSubjectExport {
  return {
    email,
    customer: customer && {
      id: customer.id,
      email: customer.email,
      name: customer.name,
      phone: customer.phone,
      created_at: customer.createdAt.toISOString(),
      updated_at: customer.updatedAt.toISOString(),
    },
    consent: customer && {
      marketing: customer.consent.marketing,
      analytics: customer.consent.analytics,
      sale_of_data: customer.consent.saleOfData,
      updated_at: customer.consent.updatedAt?.toISOString() ?? null,
    },
    addresses: (customer?.addresses ?? []).map(({ id, address, createdAt }) => ({ id, ...address, created_at: createdAt.toISOString() })),
    orders,
  };
}
