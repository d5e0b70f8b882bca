import type { Request } from 'express';
import { CustomerImportError } from '../../customers/customer-service.js';
import { codeKey } from '../../discounts/discount.js';
import { DiscountImportError } from '../../discounts/discount-service.js';
import { InvalidRequestError, NotFoundError } from '../../kernel/errors.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import { withUploadedFile } from '../uploaded-file.js';
import type { CommerceServices } from './commerce.js';
import { auditTarget } from '../operator-context.js';
import { existingMerchant } from './existing-merchant.js';
import { pathParam } from './page-params.js';

/** The body as the file `gateway … import` reads, through `importFile`; a refused record → 400 naming its line, nothing written. */
async function importBody<T>(req: Request, importFile: (path: string) => Promise<T>): Promise<T> {
  try {
    return await withUploadedFile(req.ctx.rawBody ?? Buffer.alloc(0), importFile);
  } catch (error) {
    if (error instanceof DiscountImportError || error instanceof CustomerImportError) throw new InvalidRequestError(`The upload was not imported: ${error.message}`, 'body');
    throw error;
  }
}

/**
 * Discount codes and promotions (show one, import a discounts file) and customers (import a
 * customers file) of the merchant of the path — the services `gateway discounts|customers …` run.
 */
export function commerceFileOperations({ customers, discounts }: CommerceServices, merchants: Pick<MerchantService, 'exists'>): OperationHandlers {
  /** One record of the merchant's discounts file, as it was imported. */
  const discountRecord = async (req: Request, matches: (record: Record<string, unknown>) => boolean, what: string, param: string) => {
    const record = (await discounts.export(pathParam(req, 'merchant_id'))).find(matches);
    if (!record) throw new NotFoundError(`No ${what} ${JSON.stringify(pathParam(req, param))} for merchant ${pathParam(req, 'merchant_id')}`, param);
    return record;
  };
  return {
    getDiscountCode: async (req, res) => {
      const key = codeKey(pathParam(req, 'code'));
      res.json(await discountRecord(req, (r) => r.type === 'code' && typeof r.code === 'string' && codeKey(r.code) === key, 'discount code', 'code'));
    },
    getPromotion: async (req, res) => {
      const id = pathParam(req, 'promotion_id');
      res.json(await discountRecord(req, (r) => r.type === 'promotion' && r.id === id, 'promotion', 'promotion_id'));
    },
    removeDiscountCode: async (req, res) => {
      const code = pathParam(req, 'code');
      auditTarget(req, code);
      const removed = await discounts.remove(pathParam(req, 'merchant_id'), { code });
      if (!removed) throw new NotFoundError(`No discount code ${JSON.stringify(code)} for merchant ${pathParam(req, 'merchant_id')}`, 'code');
      res.json(removed);
    },
    removePromotion: async (req, res) => {
      const promotionId = pathParam(req, 'promotion_id');
      const removed = await discounts.remove(pathParam(req, 'merchant_id'), { promotionId });
      if (!removed) throw new NotFoundError(`No promotion ${JSON.stringify(promotionId)} for merchant ${pathParam(req, 'merchant_id')}`, 'promotion_id');
      res.json(removed);
    },
    importDiscounts: async (req, res) => {
      const merchantId = await existingMerchant(req, merchants);
      const counts = await importBody(req, (path) => discounts.importFile(merchantId, path));
      res.json({ merchant_id: merchantId, codes: counts.codes, promotions: counts.promotions });
    },
    importCustomers: async (req, res) => {
      const merchantId = await existingMerchant(req, merchants);
      const counts = await importBody(req, (path) => customers.importFile(merchantId, path));
      res.json({ merchant_id: merchantId, customers: counts.customers, addresses: counts.addresses });
    },
  };
}
