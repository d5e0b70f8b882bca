/**
 * The buyer of a session as the merchant knows them: the customer of the session's email, the
 * addresses it shipped to before (offered, and chosen by id), and the saved address the shipping
 * address is. Completion remembers the buyer — creates the customer, saves the address (deduplicated),
 * stores the consent — in its own transaction (CheckoutService).
 */
import type { Address, Customer } from '../contract/types.js';
import type { Tx } from '../db/transaction.js';
import { InvalidRequestError } from '../kernel/errors.js';

/** A saved address: its id and fields. */
export interface SavedAddress {
  id: string;
  address: Address;
}

export interface KnownCustomer {
  id: string;
  /** Newest first. */
  addresses: SavedAddress[];
}

/** What checkout needs of the merchant's customers (the customers service provides it). */
export interface CustomerDirectory {
  /** The merchant's customer with this email (any case), with its saved addresses; null when none. */
  find(merchantId: string, email: string, tx?: Tx): Promise<KnownCustomer | null>;
  /** Creates or updates the customer of `buyer.email` and saves `address` (an equal saved one keeps its id), in the completion's transaction. */
  remember(tx: Tx, merchantId: string, buyer: Customer, address: Address | null): Promise<{ customerId: string; addressId: string | null }>;
  /** The form two addresses that are the same place share (case, spacing and empty fields aside). */
  fingerprint(address: Address): string;
}

/** At most this many saved addresses are offered on a session. */
export const OFFERED_ADDRESSES = 10;

export interface BuyerFields {
  customerId: string | null;
  shippingAddress: Address | null;
  shippingAddressId: string | null;
  savedAddresses: SavedAddress[] | null;
}

/**
 * The session's buyer fields: the known customer of `customer.email`, the address chosen by id (400
 * naming `shipping_address_id` unless it is one of this buyer's), or the given address with the id of
 * the saved address equal to it.
 */
export async function buyerFields(
  directory: CustomerDirectory | undefined,
  request: { merchantId: string; customer: Customer | null; shippingAddress: Address | null; shippingAddressId?: string | undefined; tx?: Tx | undefined },
): Promise<BuyerFields> {
  const email = request.customer?.email?.trim();
  const known = directory && email ? await directory.find(request.merchantId, email, request.tx) : null;
  const savedAddresses = known?.addresses.length ? known.addresses.slice(0, OFFERED_ADDRESSES) : null;
  if (request.shippingAddressId !== undefined) {
    const saved = known?.addresses.find((entry) => entry.id === request.shippingAddressId);
    if (!saved) {
      const whose = !email ? 'the session has no customer email yet' : known ? `it is not one of ${email}'s saved addresses` : `${email} has no saved address`;
      throw new InvalidRequestError(`No saved address ${JSON.stringify(request.shippingAddressId)} for this buyer: ${whose}`, 'shipping_address_id');
    }
    return { customerId: known!.id, shippingAddress: saved.address, shippingAddressId: saved.id, savedAddresses };
  }
  const address = request.shippingAddress;
  const print = address && directory && known ? directory.fingerprint(address) : undefined;
  const match = print === undefined ? undefined : known!.addresses.find((entry) => directory!.fingerprint(entry.address) === print);
  return { customerId: known?.id ?? null, shippingAddress: address, shippingAddressId: match?.id ?? null, savedAddresses };
}
