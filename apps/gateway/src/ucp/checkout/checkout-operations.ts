/**
 * The five UCP checkout operations by our name for the official operationId (`ucp.` prefixed).
 * Bodies are validated here against the negotiated release's request schemas (request-schemas.ts):
 * the checkout with its extensions for create and update; for completion, the release's completion
 * schema (2026-04-08's checkout resolved for `complete`, its `payment.instruments`; 2026-01-11's
 * `payment_data`), from which the release picks the instrument.
 */
import type { Request } from 'express';
import type { BeforeCommit } from '../../db/transaction.js';
import { merchantOf } from '../../http/context.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { negotiationOf } from '../negotiation.js';
import { firstProblem, ucpRequestValidator, type UcpRequestOperation } from '../request-schemas.js';
import { releaseOf } from '../releases/releases.js';
import { UcpError } from '../ucp-error.js';
import type { UcpVersion } from '../ucp-version.js';
import type { UcpCheckoutRequest } from './checkout-request.js';
import type { UcpInstrument } from './payment-instruction.js';
import type { UcpCheckout, UcpCheckoutBody, UcpScope } from './ucp-checkout.js';

const SCHEMAS = 'https://ucp.dev/schemas/shopping';

/** The schemas a request body must match: the checkout and each extension's composition of it; a completion, the release's. */
function requestRefs(version: UcpVersion, operation: UcpRequestOperation): string[] {
  const { checkout } = releaseOf(version);
  if (operation === 'complete') return [`${SCHEMAS}/${checkout.completionSchema}`];
  return [`${SCHEMAS}/checkout.json`, ...['fulfillment', 'discount', 'buyer_consent'].map((extension) => `${SCHEMAS}/${extension}.json#/$defs/${checkout.extensionDefinition}`)];
}

function validBody<T>(req: Request, version: UcpVersion, operation: UcpRequestOperation): T {
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UcpError('invalid_request', 'The request body must be a JSON object', 400);
  const validate = ucpRequestValidator(version, operation, requestRefs(version, operation));
  if (!validate(body)) {
    const { path, message } = firstProblem(validate);
    throw new UcpError('invalid_request', message, 400, {}, { path });
  }
  return body as T;
}

/** The instrument a completion pays with, as the release's body names it (2026-04-08: the selected instrument, or the only one). */
function instrumentOf(version: UcpVersion, body: Record<string, unknown>): UcpInstrument {
  const { checkout } = releaseOf(version);
  const instrument = checkout.instrumentOf(body);
  if (!instrument) throw new UcpError('invalid_request', checkout.missingInstrument.content, 400, {}, { path: checkout.missingInstrument.path });
  return instrument as UcpInstrument;
}

const isCartConversion = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && 'cart_id' in body && !('line_items' in body);

/** Stores the operation's answer under the request's Idempotency-Key, in the operation's transaction. */
function storeAnswer(req: Request, status: number): BeforeCommit<UcpCheckoutBody> | undefined {
  return req.ctx.idempotency?.storeWith<UcpCheckoutBody>(status, (body) => body);
}

const scope = (req: Request): UcpScope => ({ merchantId: merchantOf(req.ctx), negotiation: negotiationOf(req) });
const checkoutId = (req: Request): string => req.ctx.pathParams!.id!;

export function ucpCheckoutOperations(ucp: UcpCheckout): OperationHandlers {
  /** A checkout's requests are read, and answered, at the release it was created at. */
  const sessionRelease = async (req: Request): Promise<UcpVersion> => {
    const version = await ucp.release(scope(req), checkoutId(req));
    negotiationOf(req).version = version;
    return version;
  };
  return {
    'ucp.create_checkout': async (req, res) => {
      const negotiation = negotiationOf(req);
      await negotiation.profile(); // the release the body is read at is the negotiated one
      // A checkout from a cart takes the cart's lines: `line_items` may be left out (the spec's example sends []).
      if (isCartConversion(req.body)) req.body = { line_items: [], ...req.body };
      const body = validBody<UcpCheckoutRequest>(req, negotiation.version, 'create');
      res.status(201).json(await ucp.create(scope(req), body, storeAnswer(req, 201)));
    },
    'ucp.get_checkout': async (req, res) => {
      res.json(await ucp.get(scope(req), checkoutId(req)));
    },
    'ucp.update_checkout': async (req, res) => {
      const body = validBody<UcpCheckoutRequest>(req, await sessionRelease(req), 'update');
      res.json(await ucp.update(scope(req), checkoutId(req), body, storeAnswer(req, 200)));
    },
    'ucp.complete_checkout': async (req, res) => {
      const version = await sessionRelease(req);
      const instrument = instrumentOf(version, validBody<Record<string, unknown>>(req, version, 'complete'));
      res.json(await ucp.complete(scope(req), checkoutId(req), instrument, storeAnswer(req, 200)));
    },
    'ucp.cancel_checkout': async (req, res) => {
      await sessionRelease(req);
      res.json(await ucp.cancel(scope(req), checkoutId(req), storeAnswer(req, 200)));
    },
  };
}
