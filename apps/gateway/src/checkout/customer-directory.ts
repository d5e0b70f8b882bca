/**
 * The customers as checkout asks for them (checkout/session-customer.ts's CustomerDirectory): the
 * buyer of an email with their saved addresses, the buyer remembered at completion, and the
 * fingerprint by which two addresses are the same place.
 */
import type { CustomerDirectory } from './session-customer.js';
import type { Customer as Buyer } from '../contract/types.js';
import { addressFingerprint } from '../customers/address-fingerprint.js';
import type { CustomerService } from '../customers/customer-service.js';

export function checkoutDirectory(customers: CustomerService): CustomerDirectory {
  return {
    async find(merchantId, email, tx) {
      const customer = await customers.findByEmail(merchantId, email, tx);
      return customer && { id: customer.id, addresses: customer.addresses.map(({ id, address }) => ({ id, address })) };
    },
    remember(tx, merchantId, buyer: Buyer, address) {
      const consent = buyer.consent && {
        ...(buyer.consent.marketing !== undefined ? { marketing: buyer.consent.marketing } : {}),
        ...(buyer.consent.analytics !== undefined ? { analytics: buyer.consent.analytics } : {}),
        ...(buyer.consent.sale_of_data !== undefined ? { saleOfData: buyer.consent.sale_of_data } : {}),
      };
      return customers.remember(tx, merchantId, { email: buyer.email ?? '', name: buyer.name, phone: buyer.phone, consent, address: address ?? undefined });
    },
    fingerprint: addressFingerprint,
  };
}
