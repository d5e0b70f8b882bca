import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { AuditLog } from '../audit-log.js';
import { merchantScope, operatorOf } from '../operator-context.js';
import { auditWire } from '../wire.js';
import { pageParams } from './page-params.js';

export function auditOperations(audit: AuditLog): OperationHandlers {
  return {
    listAuditEntries: async (req, res) => {
      await audit.settled(); // this process's writes answered so far are in the log
      const scope = merchantScope(req);
      const page = await audit.store.list(pageParams(req), { operatorId: operatorOf(req).id, ...(scope ? { merchantIds: scope } : {}) });
      res.json({ ...page, items: page.items.map(auditWire) });
    },
  };
}
