/**
 * The bodies of create_cart and update_cart. The official cart.json is the response shape; its
 * `ucp_request` annotations say what a request carries: `line_items[]` with `item.id` and `quantity`
 * (line `id` and `parent_id` on update only), `context`, `signals`, `attribution`, `buyer`, and on
 * update the cart `id`. That request shape is checked here, its parts by the official schemas
 * (types/context.json, buyer.json, signals.json, attribution.json); what a request must omit (item
 * title or price, totals, currency, …) is ignored, never trusted. At most 100 lines (our carts' limit).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { MAX_LINES, MAX_QUANTITY } from '../../checkout/line-resolver.js';
import { UcpError } from '../ucp-error.js';
import { shoppingSchema, ucpCompile } from '../ucp-schemas.js';
import { CART_VERSION } from './cart-state.js';

export interface CartLineRequest {
  id?: string;
  item: { id: string };
  quantity: number;
}

export interface CartRequest {
  id?: string;
  line_items: CartLineRequest[];
  context?: Record<string, unknown>;
  buyer?: Record<string, unknown>;
  signals?: Record<string, unknown>;
  attribution?: Record<string, unknown>;
}

function requestSchema(update: boolean): Record<string, unknown> {
  return {
    type: 'object',
    required: update ? ['id', 'line_items'] : ['line_items'],
    properties: {
      ...(update ? { id: { type: 'string' } } : {}),
      line_items: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_LINES,
        items: {
          type: 'object',
          required: ['item', 'quantity'],
          properties: {
            ...(update ? { id: { type: 'string' }, parent_id: { type: 'string' } } : {}),
            item: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 256 } } },
            quantity: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY },
          },
        },
      },
      context: { $ref: shoppingSchema('types/context.json') },
      signals: { $ref: shoppingSchema('types/signals.json') },
      attribution: { $ref: shoppingSchema('types/attribution.json') },
      buyer: { $ref: shoppingSchema('types/buyer.json') },
    },
  };
}

let validators: { create: ValidateFunction; update: ValidateFunction } | undefined;

/** The request, checked; 400 `invalid_request` naming the first problem. */
export function checkCartRequest(body: unknown, kind: 'create' | 'update'): CartRequest {
  validators ??= { create: ucpCompile(CART_VERSION, requestSchema(false)), update: ucpCompile(CART_VERSION, requestSchema(true)) };
  const validate = validators[kind];
  if (!validate(body)) {
    const error = validate.errors?.[0];
    const where = error?.instancePath ? `$${error.instancePath.replaceAll('/', '.').replace(/\.(\d+)/g, '[$1]')}` : 'The body';
    const hint = error?.instancePath === '/line_items' && error.keyword === 'minItems' ? ' (to empty a cart, cancel it)' : '';
    throw new UcpError('invalid_request', `${where} ${error?.message ?? 'is invalid'}${hint}`, 400);
  }
  return body as CartRequest;
}
