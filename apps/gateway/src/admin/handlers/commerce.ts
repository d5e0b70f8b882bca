import { InvalidRequestError, NotFoundError } from '../../kernel/errors.js';
import type { CustomerService } from '../../customers/customer-service.js';
import type { DiscountService } from '../../discounts/discount-service.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { ShippingService } from '../../shipping/shipping-service.js';
import { auditTarget } from '../operator-context.js';
import { pageParams, pathParam } from './page-params.js';

/** The services `gateway customers|discounts|shipping …` run. */
export interface CommerceServices {
  customers: CustomerService;
  discounts: DiscountService;
  shipping: ShippingService;
}

/** Customers are paged by email (they are listed in that order): the cursor is the page's last email, base64url. */
function emailAfter(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const email = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!email.includes('@')) throw new InvalidRequestError('cursor is not one this API gave: pass the next_cursor of the previous page as it was', 'cursor');
  return email;
}

/** Customers (list, show, erase), discounts (list) and the shipping profile (show, replace, remove) of the merchant of the path. */
export function commerceOperations({ customers, discounts, shipping }: CommerceServices): OperationHandlers {
  return {
    listCustomers: async (req, res) => {
      const { limit, cursor } = pageParams(req);
      const after = emailAfter(cursor);
      const records = (await customers.list(pathParam(req, 'merchant_id'))).sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
      const rest = after === undefined ? records : records.filter((r) => r.email > after);
      const items = rest.slice(0, limit);
      const more = rest.length > limit;
      res.json({ items, has_more: more, next_cursor: more ? Buffer.from(items.at(-1)!.email, 'utf8').toString('base64url') : null });
    },
    // A customer is addressed by id, so that no email reaches a path, a request log or the audit log.
    getCustomer: async (req, res) => {
      res.json(await customers.exportCustomer(pathParam(req, 'merchant_id'), pathParam(req, 'customer_id')));
    },
    removeCustomer: async (req, res) => {
      auditTarget(req, pathParam(req, 'customer_id'));
      res.json(await customers.eraseCustomer(pathParam(req, 'merchant_id'), pathParam(req, 'customer_id')));
    },
    listDiscounts: async (req, res) => {
      res.json({ items: await discounts.export(pathParam(req, 'merchant_id')), has_more: false, next_cursor: null });
    },
    getShippingProfile: async (req, res) => {
      const merchantId = pathParam(req, 'merchant_id');
      const profile = await shipping.export(merchantId);
      if (!profile) throw new NotFoundError(`Merchant ${merchantId} has no shipping profile (it ships at the settings' flat rate)`, 'merchant_id');
      res.json(profile);
    },
    removeShippingProfile: async (req, res) => {
      const merchantId = pathParam(req, 'merchant_id');
      const profile = await shipping.export(merchantId);
      if (!profile || !(await shipping.remove(merchantId))) throw new NotFoundError(`Merchant ${merchantId} has no shipping profile (it ships at the settings' flat rate)`, 'merchant_id');
      res.json(profile);
    },
    replaceShippingProfile: async (req, res) => {
      const merchantId = pathParam(req, 'merchant_id');
      await shipping.import(merchantId, req.body);
      res.json(await shipping.export(merchantId));
    },
  };
}
