import type { Request } from 'express';
import { NotFoundError } from '../../kernel/errors.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import { pathParam } from './page-params.js';

/** The merchant of the path, which must exist (an import never creates one here, as with the CLI). */
export async function existingMerchant(req: Request, merchants: Pick<MerchantService, 'exists'>): Promise<string> {
  const merchantId = pathParam(req, 'merchant_id');
  if (!(await merchants.exists(merchantId))) throw new NotFoundError(`No merchant ${JSON.stringify(merchantId)} (create it first: POST /admin/merchants)`, 'merchant_id');
  return merchantId;
}
