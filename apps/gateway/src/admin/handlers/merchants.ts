import { AuthorizationError } from '../../kernel/errors.js';
import { ConflictError } from '../conflict-error.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import { auditTarget, merchantScope, operatorOf } from '../operator-context.js';
import { merchantWire } from '../wire.js';
import { pageOf, positionOf } from '../page-cursor.js';
import { pageParams } from './page-params.js';

export function merchantOperations(merchants: Pick<MerchantService, 'newestFirst' | 'createIfNew'>): OperationHandlers {
  return {
    listMerchants: async (req, res) => {
      const params = pageParams(req);
      const rows = await merchants.newestFirst(merchantScope(req), positionOf(params), params.limit + 1);
      const page = pageOf(rows, params.limit, merchantWire);
      res.json(page);
    },
    createMerchant: async (req, res) => {
      const body = req.body as { id: string; name?: string };
      auditTarget(req, body.id, body.id);
      if (!operatorOf(req).allMerchants) throw new AuthorizationError('Only an operator credential serving every merchant (--all-merchants) may create merchants');
      const created = await merchants.createIfNew(body.id, body.name ?? body.id);
      if (!created) throw new ConflictError(`merchant ${JSON.stringify(body.id)} exists already`, 'id');
      res.status(201).json(merchantWire(created));
    },
  };
}
