import { AuthorizationError } from '../../kernel/errors.js';
import { ConflictError } from '../conflict-error.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { MerchantStore } from '../merchant-store.js';
import { auditTarget, merchantScope, operatorOf } from '../operator-context.js';
import { merchantWire } from '../wire.js';
import { pageParams } from './page-params.js';

export function merchantOperations(merchants: MerchantStore): OperationHandlers {
  return {
    listMerchants: async (req, res) => {
      const page = await merchants.list(pageParams(req), merchantScope(req));
      res.json({ ...page, items: page.items.map(merchantWire) });
    },
    createMerchant: async (req, res) => {
      const body = req.body as { id: string; name?: string };
      auditTarget(req, body.id, body.id);
      if (!operatorOf(req).allMerchants) throw new AuthorizationError('Only an operator credential serving every merchant (--all-merchants) may create merchants');
      const created = await merchants.create(body.id, body.name ?? body.id);
      if (!created) throw new ConflictError(`merchant ${JSON.stringify(body.id)} exists already`, 'id');
      res.status(201).json(merchantWire(created));
    },
  };
}
