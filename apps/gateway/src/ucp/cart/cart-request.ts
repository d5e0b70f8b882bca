/**
 * The bodies of create_cart and update_cart, checked twice:
 * 1. against the official cart.json resolved for the operation by its `ucp_request` annotations
 *    (request-schemas.ts): `line_items[]` with `item.id` and `quantity`, `context`, `signals`,
 *    `attribution`, `buyer`, and on update the cart `id`; what a request must omit (item title or
 *    price, totals, currency, …) is dropped from the schema — ignored, never trusted;
 * 2. against our carts' limits: 1 to 100 lines, quantities up to 999, item ids up to 256 characters.
 * Either failure is a 400 `invalid_request` naming the field.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { MAX_LINES, MAX_QUANTITY } from '../../checkout/line-resolver.js';
import { firstProblem, ucpRequestValidator } from '../request-schemas.js';
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
  const official = ucpRequestValidator(CART_VERSION, kind, [shoppingSchema('cart.json')]);
  validators ??= { create: ucpCompile(CART_VERSION, requestSchema(false)), update: ucpCompile(CART_VERSION, requestSchema(true)) };
  for (const validate of [official, validators[kind]]) {
    if (validate(body)) continue;
    const { path, message } = firstProblem(validate);
    const hint = path === '$.line_items' && validate.errors?.[0]?.keyword === 'minItems' ? ' (to empty a cart, cancel it)' : '';
    throw new UcpError('invalid_request', `${path === '$' ? 'The body' : ''}${path === '$' ? message.slice(1) : message}${hint}`, 400, {}, { path });
  }
  return body as CartRequest;
}
