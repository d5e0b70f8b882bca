/**
 * Every answer of the ACP profile is checked against the official schema before it is sent:
 * sessions against the operation's response schema, errors against `Error`. One that does not
 * validate is a bug in the gateway: logged, and answered 500 `processing_error` instead.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { acpValidator, describeFirst } from './acp-schemas.js';

export function validateAcpResponses(schemaOf: (operationId: string) => string | undefined, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const schema = !ok ? 'Error' : req.ctx.operation?.operationId === 'acp.discovery' ? 'DiscoveryResponse' : req.ctx.operation && schemaOf(req.ctx.operation.operationId);
      if (schema) {
        const validate = acpValidator(schema);
        if (!validate(body)) {
          const problem = describeFirst(validate.errors);
          logger.error({ requestId: req.ctx.requestId, schema, problem }, 'an ACP response broke the official schema');
          res.status(500);
          return send({ type: 'processing_error', code: 'internal_error', message: 'Internal error; quote the Request-Id when you report it' });
        }
      }
      return send(body);
    };
    next();
  };
}
