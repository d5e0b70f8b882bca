import type { RequestHandler } from 'express';
import type { AuditLog } from './audit-log.js';
import { servesMerchant, type Operator } from './operator.js';
import { adminContext } from './operator-context.js';
import { withoutEmails } from '../http/without-emails.js';

const maskEmail = (value: string | null): string | null => (value === null ? null : withoutEmails(value));

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every write to the admin API, once answered — carried out, refused or failed — appends an audit
 * entry: the operator (null when its credential was refused), the operation, its target and
 * merchant, the outcome and status, the refusal's reason and the request id. First in the admin
 * profile's chain, so that nothing after it (authentication included) can answer unaudited.
 *
 * An entry never names a merchant its operator does not serve: when a handler found that the
 * target belongs to another merchant (an endpoint, a delivery, a key of a merchant the credential
 * cannot see, refused as not found), that merchant's id is left out — the operator sees its own
 * entries, and the entry must not tell it what the refusal did not.
 *
 *   before: [auditTrail(audit)]
 */
export function auditTrail(audit: AuditLog): RequestHandler {
  return (req, res, next) => {
    if (!WRITES.has(req.method)) return next();
    let recorded = false;
    // 'finish' once the answer is sent; 'close' alone when the client went away first (still audited, as failed).
    const record = () => {
      if (recorded) return;
      recorded = true;
      const context = adminContext(req);
      const params = req.ctx.pathParams ?? {};
      const named = Object.entries(params).filter(([name]) => name !== 'merchant_id').map(([, value]) => value);
      const status = res.statusCode;
      const cut = !res.writableFinished; // the client went away before the answer: whether the write happened is not known here
      const created = (req.body as { id?: unknown } | undefined)?.id; // what a create names in its body
      audit.record({
        operatorId: context.operator?.id ?? null,
        operation: req.ctx.operation?.operationId ?? 'unknown',
        method: req.method,
        // Never an email (customers are named by id; one sent where an id belongs is masked: http/without-emails.ts).
        path: withoutEmails(req.path),
        target: maskEmail(context.target ?? named.at(-1) ?? (typeof created === 'string' ? created : undefined) ?? params.merchant_id ?? null),
        merchantId: visibleMerchant(context.operator, context.merchantId ?? params.merchant_id),
        outcome: cut || status >= 500 ? 'failed' : status < 400 ? 'succeeded' : 'refused',
        status,
        detail: cut ? 'the client closed the connection before the answer was sent; the operation may have been carried out' : status < 400 ? null : (context.detail ?? 'internal_error'),
        requestId: req.ctx.requestId,
      });
    };
    res.on('finish', record);
    res.on('close', record);
    next();
  };
}

/** The merchant an entry names: none when its operator does not serve it (an unauthenticated caller's entry names what it asked for). */
function visibleMerchant(operator: Operator | undefined, merchantId: string | undefined): string | null {
  if (merchantId === undefined) return null;
  return !operator || servesMerchant(operator, merchantId) ? merchantId : null;
}
