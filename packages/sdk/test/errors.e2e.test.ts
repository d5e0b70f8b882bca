/** Each error class, raised by what the real gateway answers (or does not answer). */
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  AuthorizationError,
  CommerceGatewayError,
  CommerceGateway,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  ServerError,
  type Product,
} from '../src/index.js';
import { buyableProducts } from './support/catalog.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys, signingSecret } = gatewayUnderTest();
const gw = new CommerceGateway({ apiKey: keys.main, baseUrl: url });

let product: Product;
beforeAll(async () => {
  [product] = (await buyableProducts(gw, 1)) as [Product];
});

/** The rejection of `promise`, checked to be a CommerceGatewayError with a Request-Id. */
async function failure(promise: Promise<unknown>): Promise<CommerceGatewayError> {
  const error = await promise.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CommerceGatewayError);
  return error as CommerceGatewayError;
}

function expectAnswered(error: CommerceGatewayError, status: number, code: string) {
  expect(error).toMatchObject({ status, code });
  expect(error.requestId).toMatch(/^req_/);
  expect(error.raw).toBeTypeOf('object');
  expect(error.message.length).toBeGreaterThan(5);
}

describe('AuthenticationError (401)', () => {
  it('for an unknown key', async () => {
    const error = await failure(new CommerceGateway({ apiKey: 'sk_dev_unknown0000000000000000000000', baseUrl: url }).products.search());
    expect(error).toBeInstanceOf(AuthenticationError);
    expectAnswered(error, 401, 'authentication_error');
    expect(error.raw).toMatchObject({ error: { type: 'authentication_error' } });
  });

  it('for a key of another environment', async () => {
    const sandbox = new CommerceGateway({ apiKey: 'sk_sandbox_0000000000000000000000000000', baseUrl: url });
    expect(await failure(sandbox.products.search())).toBeInstanceOf(AuthenticationError);
  });

  it('for a request signed with the wrong secret', async () => {
    const wrong = new CommerceGateway({ apiKey: keys.signed, merchantId: 'demo', signingSecret: 'ss_wrong', baseUrl: url });
    const error = await failure(wrong.checkoutSessions.create({ items: [{ product_id: product.id }] }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(/Signature does not match/);
  });

  it('for an unsigned request of a signing key', async () => {
    const unsigned = new CommerceGateway({ apiKey: keys.signed, merchantId: 'demo', baseUrl: url });
    expect(await failure(unsigned.products.retrieve(product.id))).toBeInstanceOf(AuthenticationError);
    expect(signingSecret).toBeTruthy();
  });
});

describe('AuthorizationError (403)', () => {
  it('for a merchant the key does not serve', async () => {
    const stranger = new CommerceGateway({ apiKey: keys.signed, signingSecret, merchantId: 'stranger', baseUrl: url });
    const error = await failure(stranger.products.search());
    expect(error).toBeInstanceOf(AuthorizationError);
    expectAnswered(error, 403, 'authorization_error');
  });
});

describe('InvalidRequestError (400, 413)', () => {
  it('names the offending field', async () => {
    const error = await failure(gw.checkoutSessions.create({ items: [{ product_id: product.id, quantity: 0 }] }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expectAnswered(error, 400, 'invalid_request');
    expect((error as InvalidRequestError).param).toBe('items[0].quantity');
  });

  it('names the query parameter', async () => {
    const error = await failure(gw.products.search({ page_size: 500 }));
    expect(error).toMatchObject({ name: 'InvalidRequestError', param: 'page_size' });
  });

  it('lists the supported versions for an unknown API-Version', async () => {
    const old = new CommerceGateway({ apiKey: keys.main, baseUrl: url, apiVersion: '1999-01-01' });
    const error = await failure(old.products.search());
    expect(error).toMatchObject({ name: 'InvalidRequestError', param: 'API-Version', supportedVersions: ['2026-11-01'] });
  });

  it('asks for Merchant-Id when the key serves several merchants', async () => {
    const ambiguous = new CommerceGateway({ apiKey: keys.signed, signingSecret, baseUrl: url });
    expect(await failure(ambiguous.products.search())).toMatchObject({ name: 'InvalidRequestError', param: 'Merchant-Id' });
  });

  it('refuses a shipped cart without an address at completion', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: product.id }] });
    const error = await failure(gw.checkoutSessions.complete(session.id));
    expect(error).toMatchObject({ name: 'InvalidRequestError', status: 400, param: 'shipping_address' });
  });

  it('for a body larger than 1 MiB (413 payload_too_large)', async () => {
    const error = await failure(gw.webhooks.emit({ event_type: 'order.created', payload: { blob: 'x'.repeat(1_100_000) } }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expectAnswered(error, 413, 'payload_too_large');
  });
});

describe('NotFoundError (404)', () => {
  it('for an unknown product', async () => {
    const error = await failure(gw.products.retrieve('no-such-product'));
    expect(error).toBeInstanceOf(NotFoundError);
    expectAnswered(error, 404, 'not_found');
  });

  it('for an unknown session', async () => {
    expect(await failure(gw.checkoutSessions.retrieve('cs_doesnotexist'))).toBeInstanceOf(NotFoundError);
  });
});

describe('MethodNotAllowedError (405)', () => {
  it('for a cancel of a canceled session', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: product.id }] });
    await gw.checkoutSessions.cancel(session.id);
    const error = await failure(gw.checkoutSessions.cancel(session.id));
    expect(error).toBeInstanceOf(MethodNotAllowedError);
    expectAnswered(error, 405, 'method_not_allowed');
  });
});

describe('ConflictError (422)', () => {
  it('for an Idempotency-Key reused with another body', async () => {
    const key = `conflict-${Date.now()}`;
    await gw.checkoutSessions.create({ items: [{ product_id: product.id }] }, { idempotencyKey: key });
    const error = await failure(gw.checkoutSessions.create({ items: [{ product_id: product.id, quantity: 2 }] }, { idempotencyKey: key }));
    expect(error).toBeInstanceOf(ConflictError);
    expectAnswered(error, 422, 'idempotency_conflict');
    expect(error.idempotencyKey).toBe(key);
  });
});

describe('ServerError (5xx)', () => {
  it('for a webhook target that gives no answer (502 bad_gateway)', async () => {
    const closedPort = await freePort();
    const error = await failure(gw.webhooks.emit({ event_type: 'order.created', target_url: `http://127.0.0.1:${closedPort}/hook` }, { maxRetries: 0 }));
    expect(error).toBeInstanceOf(ServerError);
    expectAnswered(error, 502, 'bad_gateway');
  });
});

describe('ConnectionError (no answer)', () => {
  it('for a gateway that is not there, after the retries', async () => {
    const nowhere = new CommerceGateway({ apiKey: keys.main, baseUrl: `http://127.0.0.1:${await freePort()}` });
    const error = await failure(nowhere.checkoutSessions.create({ items: [{ product_id: product.id }] }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: undefined, code: 'connection_error', requestId: undefined });
    expect(error.message).toMatch(/Could not reach the Commerce Gateway at http:\/\/127\.0\.0\.1:\d+ \(createCheckoutSession\): fetch failed \(ECONNREFUSED\)/);
    expect(error.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** A port nothing listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
