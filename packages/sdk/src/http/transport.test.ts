import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveOptions, type CommerceGatewayOptions, type ResponseEvent } from '../config/options.js';
import {
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnexpectedResponseError,
} from '../errors/errors.js';
import { CheckoutSessions } from '../resources/checkout-sessions.js';
import { Products } from '../resources/products.js';
import { Webhooks } from '../resources/webhooks.js';
import { connectionReset, fakeFetch, type Answer } from '../testing/fake-fetch.js';
import { json, product, session } from '../testing/fixtures.js';
import { Transport } from './transport.js';

const UUID = /^[0-9a-f-]{36}$/;

function gateway(answers: Answer[], options: Partial<CommerceGatewayOptions> = {}) {
  const { fetch, sent } = fakeFetch(answers);
  const delays: number[] = [];
  const events: ResponseEvent[] = [];
  const transport = new Transport(
    resolveOptions({ apiKey: 'sk_dev_test', baseUrl: 'http://gw.test', fetch, onResponse: (event) => events.push(event), ...options }),
    { sleep: async (ms) => void delays.push(ms), random: () => 0 },
  );
  return { products: new Products(transport), checkoutSessions: new CheckoutSessions(transport), webhooks: new Webhooks(transport), sent, delays, events };
}

const inFlight = () => json({ detail: 'still running', code: 'idempotency_in_flight' }, 409, { 'Retry-After': '1' });
const rateLimited = (seconds: number) => json({ error: { type: 'rate_limit_exceeded', message: 'slow down', retry_after: seconds } }, 429, { 'Retry-After': String(seconds) });
const unavailable = () => json({ detail: 'database down', code: 'service_unavailable' }, 503);

describe('requests', () => {
  it('sends the key, the API version and Accept, and resolves to the data itself', async () => {
    const gw = gateway([json(product())]);
    await expect(gw.products.retrieve('chair-1')).resolves.toEqual(product());
    const [sent] = gw.sent;
    expect(sent).toMatchObject({ method: 'GET', url: 'http://gw.test/acp/products/chair-1', body: '' });
    expect(sent!.headers.get('x-acp-api-key')).toBe('sk_dev_test');
    expect(sent!.headers.get('api-version')).toBe('2026-11-01');
    expect(sent!.headers.get('accept')).toBe('application/json');
    expect(sent!.headers.has('authorization')).toBe(false);
    expect(sent!.headers.has('idempotency-key')).toBe(false);
    expect(sent!.headers.has('content-type')).toBe(false);
    expect(sent!.headers.has('merchant-id')).toBe(false);
  });

  it('sends Merchant-Id and the chosen API-Version when configured', async () => {
    const gw = gateway([json(product())], { merchantId: 'shop-b', apiVersion: '2027-01-01' });
    await gw.products.retrieve('chair-1');
    expect(gw.sent[0]!.headers.get('merchant-id')).toBe('shop-b');
    expect(gw.sent[0]!.headers.get('api-version')).toBe('2027-01-01');
  });

  it('encodes ids in the path and serializes the search query', async () => {
    const page = { items: [], page: 2, page_size: 5, total: 0, version: '2026-11-01', generated_at: '2026-11-22T10:00:00Z' };
    const gw = gateway([json(product({ id: 'a/b' })), json(page), json(page)]);
    await gw.products.retrieve('a/b');
    await gw.products.search({ q: 'oak chair', max_price: 49.5, page: 2, page_size: 5 });
    await gw.products.searchAlias({ tag: 'wood' });
    expect(gw.sent.map((s) => s.url)).toEqual([
      'http://gw.test/acp/products/a%2Fb',
      'http://gw.test/acp/products?q=oak%20chair&max_price=49.5&page=2&page_size=5',
      'http://gw.test/acp/products/search?tag=wood',
    ]);
  });

  it('unwraps checkout_session and sends writes as JSON with an Idempotency-Key', async () => {
    const gw = gateway([json({ checkout_session: session() }, 201), json({ checkout_session: session() }), json({ checkout_session: session({ status: 'canceled' }) })]);
    await expect(gw.checkoutSessions.create({ items: [{ product_id: 'chair-1' }] })).resolves.toEqual(session());
    await gw.checkoutSessions.update('cs_1', { customer: { name: 'Ada' } });
    await expect(gw.checkoutSessions.cancel('cs_1')).resolves.toMatchObject({ status: 'canceled' });
    expect(gw.sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', 'http://gw.test/checkout_sessions', '{"items":[{"product_id":"chair-1"}]}'],
      ['PATCH', 'http://gw.test/checkout_sessions/cs_1', '{"customer":{"name":"Ada"}}'],
      ['POST', 'http://gw.test/checkout_sessions/cs_1/cancel', ''],
    ]);
    expect(gw.sent[0]!.headers.get('content-type')).toBe('application/json');
    expect(gw.sent[2]!.headers.has('content-type')).toBe(false);
    const keys = gw.sent.map((s) => s.headers.get('idempotency-key'));
    for (const key of keys) expect(key).toMatch(UUID);
    expect(new Set(keys).size).toBe(3);
  });

  it("uses the caller's Idempotency-Key and extra headers", async () => {
    const gw = gateway([json({ checkout_session: session({ status: 'completed' }) })]);
    await gw.checkoutSessions.complete('cs_1', { idempotencyKey: 'order-42', headers: { 'Request-Id': 'trace-1' } });
    expect(gw.sent[0]!.headers.get('idempotency-key')).toBe('order-42');
    expect(gw.sent[0]!.headers.get('request-id')).toBe('trace-1');
  });

  it('refuses an empty id before sending anything', async () => {
    const gw = gateway([]);
    await expect(gw.checkoutSessions.retrieve('')).rejects.toThrow(new TypeError('sessionId must be a non-empty string, got ""'));
    await expect(gw.products.retrieve(undefined as never)).rejects.toThrow(TypeError);
    expect(gw.sent).toHaveLength(0);
  });
});

describe('retries', () => {
  it('retries network errors and 5xx with the same Idempotency-Key, backing off exponentially', async () => {
    const gw = gateway([connectionReset(), unavailable(), json({ checkout_session: session() }, 201)]);
    await expect(gw.checkoutSessions.create({ items: [{ product_id: 'chair-1' }] })).resolves.toEqual(session());
    expect(gw.sent).toHaveLength(3);
    expect(new Set(gw.sent.map((s) => s.headers.get('idempotency-key'))).size).toBe(1);
    expect(new Set(gw.sent.map((s) => s.body)).size).toBe(1);
    expect(gw.delays).toEqual([250, 500]);
    expect(gw.events.map((e) => [e.status, e.attempt])).toEqual([[503, 1], [201, 2]]);
  });

  it('retries 409 idempotency_in_flight after Retry-After', async () => {
    const gw = gateway([inFlight(), json({ checkout_session: session() }, 201, { 'Idempotent-Replayed': 'true' })]);
    await gw.checkoutSessions.create({ items: [{ product_id: 'chair-1' }] }, { idempotencyKey: 'k1' });
    expect(gw.delays).toEqual([1000]);
    expect(gw.events.map((e) => [e.status, e.replayed, e.idempotencyKey])).toEqual([[409, false, 'k1'], [201, true, 'k1']]);
  });

  it("retries 429 after the body's retry_after, then gives up with a RateLimitError", async () => {
    const gw = gateway([rateLimited(2), rateLimited(2), rateLimited(2)]);
    const error = await gw.products.retrieve('chair-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfter: 2, code: 'rate_limit_exceeded', requestId: 'req_429' });
    expect(gw.delays).toEqual([2000, 2000]);
    expect(gw.sent).toHaveLength(3);
  });

  it('does not wait for a Retry-After longer than a minute (a used-up day limit)', async () => {
    const gw = gateway([rateLimited(3600)]);
    await expect(gw.products.retrieve('chair-1')).rejects.toMatchObject({ name: 'RateLimitError', retryAfter: 3600 });
    expect(gw.sent).toHaveLength(1);
  });

  it.each([
    [json({ detail: 'bad', code: 'invalid_request', param: 'items' }, 400), InvalidRequestError],
    [json({ detail: 'no such product', code: 'not_found' }, 404), NotFoundError],
    [json({ detail: 'other body', code: 'idempotency_conflict' }, 422), ConflictError],
  ])('never retries a 4xx that cannot succeed: %#', async (answer, type) => {
    const gw = gateway([answer]);
    await expect(gw.checkoutSessions.create({ items: [] })).rejects.toBeInstanceOf(type);
    expect(gw.sent).toHaveLength(1);
  });

  it('honours maxRetries of the client and of the call', async () => {
    const client = gateway([unavailable(), unavailable()], { maxRetries: 1 });
    await expect(client.products.retrieve('chair-1')).rejects.toBeInstanceOf(ServerError);
    expect(client.sent).toHaveLength(2);
    const call = gateway([unavailable()]);
    await expect(call.products.retrieve('chair-1', { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(call.sent).toHaveLength(1);
  });

  it('raises a ConnectionError with the Idempotency-Key once the retries are used up', async () => {
    const gw = gateway([connectionReset(), connectionReset(), connectionReset()]);
    const error = await gw.webhooks.emit({ event_type: 'order.created' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: undefined, code: 'connection_error', idempotencyKey: gw.sent[0]!.headers.get('idempotency-key') });
    expect((error as Error).message).toMatch(/Could not reach the Commerce Gateway at http:\/\/gw\.test \(emitWebhook\): fetch failed \(ECONNRESET\)/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });
});

describe('timeouts and aborts', () => {
  const hang = (request: Request) =>
    new Promise<Response>((_resolve, reject) => {
      const fail = () => reject(request.signal.reason as Error);
      if (request.signal.aborted) fail();
      else request.signal.addEventListener('abort', fail);
    });

  it('gives each attempt `timeout` ms, then retries, then raises ConnectionError code timeout', async () => {
    const gw = gateway([hang, hang], { timeout: 20, maxRetries: 1 });
    const error = await gw.products.retrieve('chair-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'timeout', message: expect.stringMatching(/within 20 ms \(getProduct\)/) });
    expect(gw.sent).toHaveLength(2);
  });

  it('takes a per-call timeout', async () => {
    const gw = gateway([hang]);
    await expect(gw.products.retrieve('chair-1', { timeout: 10, maxRetries: 0 })).rejects.toMatchObject({ code: 'timeout' });
  });

  it("rejects with the signal's reason and never retries an aborted call", async () => {
    const controller = new AbortController();
    const gw = gateway([(request) => (controller.abort(new Error('user left')), hang(request))]);
    await expect(gw.products.retrieve('chair-1', { signal: controller.signal })).rejects.toThrow('user left');
    expect(gw.sent).toHaveLength(1);
  });
});

describe('response validation', () => {
  it('turns a success that breaks the contract into an UnexpectedResponseError, never retried', async () => {
    const gw = gateway([json({ id: 'chair-1' })]);
    const error = await gw.products.retrieve('chair-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 200, code: 'unexpected_response', requestId: 'req_200' });
    expect(gw.sent).toHaveLength(1);
  });

  it('treats a 2xx that is not JSON (a proxy page) as unexpected', async () => {
    const gw = gateway([new Response('<html>captive portal</html>', { status: 200, headers: { 'Content-Type': 'text/html' } })]);
    await expect(gw.products.retrieve('chair-1')).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('can be switched off', async () => {
    const gw = gateway([json({ id: 'chair-1' })], { validateResponses: false });
    await expect(gw.products.retrieve('chair-1')).resolves.toEqual({ id: 'chair-1' });
  });
});

describe('request signing', () => {
  const hmac = (body: string) => createHmac('sha256', 'ss_secret').update(body).digest('base64');

  it('signs the exact body bytes sent, with a fresh RFC 3339 Timestamp on every attempt', async () => {
    const gw = gateway([unavailable(), json({ checkout_session: session() }, 201)], { signingSecret: 'ss_secret' });
    const before = Date.now();
    await gw.checkoutSessions.create({ items: [{ product_id: 'chair-1' }], customer: { name: 'Zoë 東京' } });
    for (const sent of gw.sent) {
      expect(sent.headers.get('signature')).toBe(hmac(sent.body));
      const timestamp = sent.headers.get('timestamp')!;
      expect(timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Math.abs(Date.parse(timestamp) - before)).toBeLessThan(5_000);
    }
  });

  it('signs the empty body of GETs and bodiless POSTs', async () => {
    const gw = gateway([json(product()), json({ checkout_session: session({ status: 'canceled' }) })], { signingSecret: 'ss_secret' });
    await gw.products.retrieve('chair-1');
    await gw.checkoutSessions.cancel('cs_1');
    expect(gw.sent.map((s) => s.headers.get('signature'))).toEqual([hmac(''), hmac('')]);
  });

  it('sends no Signature without a signing secret', async () => {
    const gw = gateway([json(product())]);
    await gw.products.retrieve('chair-1');
    expect(gw.sent[0]!.headers.has('signature')).toBe(false);
    expect(gw.sent[0]!.headers.has('timestamp')).toBe(false);
  });
});
