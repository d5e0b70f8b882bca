import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { IdempotencyError, InvalidRequestError } from '../../kernel/errors.js';
import { requestFingerprint } from '../../idempotency/fingerprint.js';
import { operationParams, type IdempotencyStore } from '../../idempotency/idempotency-store.js';
import { metricsOf } from '../metrics.js';
import { merchantOf } from '../context.js';

const KEY = /^[\x20-\x7e]{1,255}$/;
const storable = (status: number) => status >= 200 && status < 500;
const KEYED_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/**
 * Idempotency-Key on POST, PATCH and PUT (UCP's update), after the Agentic Commerce Protocol, scoped to merchant +
 * API key + the contract's operation + its path parameters: a
 * repeat with the same key and an equal body gets the stored answer again with
 * `Idempotent-Replayed: true`; another body → 422 idempotency_conflict; while
 * the first still runs → 409 idempotency_in_flight. 2xx and 4xx answers of the
 * operation are kept for 24 hours; 5xx are not. Runs after authentication and
 * validation, so their refusals are never stored. Services that change data
 * store the answer in their own transaction via `req.ctx.idempotency.storeWith`.
 *
 *   app.use(idempotency(new IdempotencyStore(db), logger));
 */
export function idempotency(store: IdempotencyStore, logger: Logger): RequestHandler {
  const keyed = keyedRequest(store, logger);
  // Synchronous for every other request (reads): no promise made where nothing is awaited.
  return (req, res, next) => {
    const key = req.get('idempotency-key');
    if (key === undefined || !KEYED_METHODS.has(req.method)) return next();
    return keyed(req, res, next, key);
  };
}

function keyedRequest(store: IdempotencyStore, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction, key: string): Promise<void> => {
    if (!KEY.test(key)) throw new InvalidRequestError('Idempotency-Key must be 1-255 printable ASCII characters', 'Idempotency-Key');

    // The contract's operation and its decoded path parameters, never the raw path: a trailing slash
    // or a percent-encoded id names the same operation on the same resource.
    const operation = req.ctx.operation!;
    const scope = { merchantId: merchantOf(req.ctx), apiKeyId: req.ctx.principal!.keyId, operation: operation.operationId, params: operationParams(req.ctx.pathParams ?? {}), key };
    const begun = await store.begin(scope, requestFingerprint(req.body));
    if (begun.kind === 'conflict') {
      throw new IdempotencyError('idempotency_conflict', 'This Idempotency-Key was already used with a different request body');
    }
    if (begun.kind === 'in_flight') {
      throw new IdempotencyError('idempotency_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly', 1);
    }
    if (begun.kind === 'replay') {
      res.setHeader('Idempotent-Replayed', 'true');
      metricsOf(req)?.idempotentReplays.inc();
      res.status(begun.status).json(begun.body);
      return;
    }

    const { recordId } = begun;
    let storedInTransaction = false;
    let settled = false;
    req.ctx.idempotency = {
      storeWith: (status, body) => async (tx, result) => {
        await store.complete(recordId, status, body(result), tx);
        storedInTransaction = true;
      },
    };
    const warn = (error: unknown, msg: string) => logger.warn({ err: error, requestId: req.ctx.requestId }, msg);
    // Conditional: deletes only a record still in flight (a rolled-back or unanswered one).
    const release = () => store.release(recordId).catch((error: unknown) => warn(error, 'could not release an idempotency key'));
    interceptJson(res, async (body) => {
      if (settled) return;
      settled = true;
      if (!storable(res.statusCode)) await release();
      else if (!storedInTransaction) {
        try {
          await store.complete(recordId, res.statusCode, body);
        } catch (error) {
          // Unrecorded, the key would answer "in flight" until it expires: free it, so that a retry runs again.
          warn(error, 'could not store an idempotent response; the key is released');
          await release();
        }
      }
    }, (error) => warn(error, 'could not store an idempotent response'));
    res.on('close', () => {
      if (!settled) {
        settled = true;
        void release();
      }
    });
    next();
  };
}

/** Runs `beforeSend` (awaited) each time the response is about to be sent as JSON. */
function interceptJson(res: Response, beforeSend: (body: unknown) => Promise<void>, onError: (error: unknown) => void): void {
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    beforeSend(body).catch(onError).finally(() => send(body));
    return res;
  };
}
