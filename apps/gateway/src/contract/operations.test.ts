import { describe, expect, it } from 'vitest';
import { OperationTable } from './operations.js';

const table = new OperationTable();

describe('OperationTable', () => {
  it.each([
    ['GET', '/acp/products', 'searchProducts', {}],
    ['GET', '/acp/products/search', 'searchProductsAlias', {}],
    ['GET', '/acp/products/10219178', 'getProduct', { product_id: '10219178' }],
    ['GET', '/acp/products/a%20b', 'getProduct', { product_id: 'a b' }],
    ['POST', '/checkout_sessions', 'createCheckoutSession', {}],
    ['GET', '/checkout_sessions/cs_1', 'getCheckoutSession', { session_id: 'cs_1' }],
    ['PATCH', '/checkout_sessions/cs_1', 'updateCheckoutSession', { session_id: 'cs_1' }],
    ['POST', '/checkout_sessions/cs_1/complete', 'completeCheckoutSession', { session_id: 'cs_1' }],
    ['POST', '/checkout_sessions/cs_1/cancel', 'cancelCheckoutSession', { session_id: 'cs_1' }],
    ['POST', '/webhooks/emit', 'emitWebhook', {}],
    ['GET', '/orders', 'listOrders', {}],
    ['GET', '/orders/ord_1', 'getOrder', { order_id: 'ord_1' }],
  ])('%s %s → %s', (method, path, operationId, params) => {
    expect(table.match(method, path)).toMatchObject({ kind: 'operation', operation: { operationId }, params });
  });

  it('knows every operation of the contract with its scopes', () => {
    expect(table.all()).toHaveLength(15);
    expect(table.match('POST', '/webhooks/emit')).toMatchObject({ operation: { scopes: ['webhooks:write'] } });
    expect(table.match('GET', '/acp/products')).toMatchObject({ operation: { scopes: ['catalog:read'] } });
    expect(table.match('GET', '/orders')).toMatchObject({ operation: { scopes: ['orders:read'] } });
    expect(table.match('GET', '/orders/ord_1')).toMatchObject({ operation: { scopes: ['orders:read'] } });
    for (const path of ['/orders/ord_1/fulfillments', '/orders/ord_1/fulfillments/ful_1/deliver', '/orders/ord_1/cancel', '/orders/ord_1/refunds']) {
      expect(table.match('POST', path)).toMatchObject({ operation: { scopes: ['orders:write'] } });
    }
  });

  it('tells an unknown path from a known path with another method', () => {
    expect(table.match('GET', '/nope')).toEqual({ kind: 'not_found' });
    expect(table.match('DELETE', '/checkout_sessions/cs_1')).toEqual({ kind: 'method_not_allowed', allowed: ['GET', 'PATCH', 'HEAD'] });
    expect(table.match('HEAD', '/checkout_sessions/cs_1')).toMatchObject({ kind: 'operation', operation: { operationId: 'getCheckoutSession' } });
  });
});
