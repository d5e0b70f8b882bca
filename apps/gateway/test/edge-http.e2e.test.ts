/** API versions, CORS, request ids, body limits and the error shapes of the edge. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let key: string;
const auth = () => ({ 'X-ACP-API-Key': key });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [product({ id: 'p-1' })]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
});
afterAll(() => gateway?.close());

describe('API-Version', () => {
  it('answers with the newest version when none is asked for', async () => {
    const reply = await call(`${gateway.url}/acp/products/p-1`, { headers: auth() });
    expect(reply.headers.get('api-version')).toBe('2026-11-01');
  });

  it('accepts a supported version and echoes it', async () => {
    const reply = await call(`${gateway.url}/acp/products/p-1`, { headers: { ...auth(), 'API-Version': '2026-11-01' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('api-version')).toBe('2026-11-01');
  });

  it('answers an unknown or empty version like any error: with CORS headers and the supported list', async () => {
    for (const version of ['1999-01-01', '']) {
      const reply = await call(`${gateway.url}/acp/products`, { headers: { ...auth(), Origin: 'https://shop.example', 'API-Version': version } });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 'invalid_request', param: 'API-Version', supported_versions: ['2026-11-01'] });
      expect(reply.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    }
  });

  it('refuses an unknown version with 400 and the supported list', async () => {
    const reply = await call(`${gateway.url}/acp/products/p-1`, { headers: { ...auth(), 'API-Version': '2024-01-01' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      detail: expect.stringContaining('2024-01-01'),
      code: 'invalid_request',
      param: 'API-Version',
      supported_versions: ['2026-11-01'],
    });
  });

  it.each([
    ['an unauthenticated request', '/acp/products/p-1', {}],
    ['an unknown route', '/nope', {}],
  ])('is echoed on %s too', async (_name, path, headers) => {
    const reply = await call(`${gateway.url}${path}`, { headers });
    expect(reply.headers.get('api-version')).toBe('2026-11-01');
  });
});

describe('Request-Id', () => {
  it('echoes the caller’s id', async () => {
    const reply = await call(`${gateway.url}/acp/products/p-1`, { headers: { ...auth(), 'Request-Id': 'trace-123' } });
    expect(reply.headers.get('request-id')).toBe('trace-123');
  });

  it('makes one when none (or an unusable one) is given', async () => {
    const replies = await Promise.all([call(`${gateway.url}/nope`), call(`${gateway.url}/nope`, { headers: { 'Request-Id': 'x'.repeat(300) } })]);
    for (const reply of replies) expect(reply.headers.get('request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    expect(replies[0]!.headers.get('request-id')).not.toBe(replies[1]!.headers.get('request-id'));
  });
});

describe('Accept-Language', () => {
  it('says the messages are in English whatever the caller prefers, and never refuses the header', async () => {
    for (const language of ['fr-CH, fr;q=0.9', 'not a ;; language', '*']) {
      const reply = await call(`${gateway.url}/acp/products/missing`, { headers: { ...auth(), 'Accept-Language': language } });
      expect(reply.status).toBe(404);
      expect(reply.headers.get('content-language')).toBe('en');
    }
  });
});

describe('CORS', () => {
  it('answers a preflight from any origin, echoing it with credentials and the requested headers', async () => {
    const reply = await call(`${gateway.url}/checkout_sessions`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-acp-api-key,idempotency-key,content-type' },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(reply.headers.get('access-control-allow-credentials')).toBe('true');
    expect(reply.headers.get('access-control-allow-methods')).toBe('GET,POST,PATCH,DELETE,OPTIONS');
    expect(reply.headers.get('access-control-allow-headers')).toBe('x-acp-api-key,idempotency-key,content-type');
  });

  it('exposes the gateway headers to browsers on actual responses', async () => {
    const reply = await call(`${gateway.url}/acp/products/p-1`, { headers: { ...auth(), Origin: 'https://shop.example' } });
    expect(reply.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(reply.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });

  it('answers a request without Origin with the credentials and exposed headers, Vary: Origin, and no allowed origin', async () => {
    const reply = await call(`${gateway.url}/acp/products/p-1`, { headers: auth() });
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    expect(reply.headers.get('access-control-allow-credentials')).toBe('true');
    expect(reply.headers.get('access-control-expose-headers')).toBe('Request-Id,API-Version,Idempotent-Replayed,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset');
    expect(reply.headers.get('vary')).toBe('Origin');
  });

  it('answers a preflight with the max age, Vary on the requested headers, and an empty 204', async () => {
    const reply = await fetch(`${gateway.url}/acp/products`, { method: 'OPTIONS', headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' } });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-max-age')).toBe('600');
    expect(reply.headers.get('access-control-allow-headers')).toBeNull(); // none requested
    expect(reply.headers.get('vary')).toBe('Origin, Access-Control-Request-Headers');
    expect(reply.headers.get('content-length')).toBe('0');
    expect(await reply.text()).toBe('');
  });

  it('allows only the listed origins when ALLOWED_ORIGINS is set', async () => {
    const narrow = await startTestGateway({ env: { ALLOWED_ORIGINS: 'https://good.example' }, db: gateway.db });
    try {
      const preflight = (origin: string) =>
        call(`${narrow.url}/acp/products`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' } });
      expect((await preflight('https://good.example')).headers.get('access-control-allow-origin')).toBe('https://good.example');
      expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
      const actual = (origin: string) => call(`${narrow.url}/acp/products/p-1`, { headers: { ...auth(), Origin: origin } });
      expect((await actual('https://good.example')).headers.get('access-control-allow-origin')).toBe('https://good.example');
      expect((await actual('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await narrow.close();
    }
  });
});

describe('hygiene', () => {
  it('answers an unknown route with 404 JSON', async () => {
    const reply = await call(`${gateway.url}/admin`, { headers: auth() });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'not_found', detail: expect.any(String) });
  });

  it('answers another method on a known path with 405 and Allow', async () => {
    const reply = await call(`${gateway.url}/acp/products`, { method: 'DELETE', headers: auth() });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, HEAD');
    expect(reply.body.code).toBe('method_not_allowed');
  });

  it('answers HEAD wherever GET is served: the same status and headers, no body', async () => {
    const get = await fetch(`${gateway.url}/acp/products/p-1`, { headers: auth() });
    const head = await fetch(`${gateway.url}/acp/products/p-1`, { method: 'HEAD', headers: auth() });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
    expect((await fetch(`${gateway.url}/acp/products/nope`, { method: 'HEAD', headers: auth() })).status).toBe(404);
    expect((await fetch(`${gateway.url}/acp/products/p-1`, { method: 'HEAD' })).status).toBe(401);
  });

  it('refuses a body over 1 MiB with 413 payload_too_large', async () => {
    const reply = await call(`${gateway.url}/checkout_sessions`, {
      method: 'POST',
      headers: auth(),
      json: { items: [{ product_id: 'p-1' }], customer: { name: 'x'.repeat(1_100_000) } },
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: 'payload_too_large' });
  });

  it('refuses malformed JSON with 400 and a detail', async () => {
    const response = await fetch(`${gateway.url}/checkout_sessions`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: '{"items": [',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_request', detail: expect.stringMatching(/^Malformed JSON body/) });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await fetch(`${gateway.url}/checkout_sessions`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'text/plain' },
      body: 'items=1',
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ code: 'invalid_request' });
  });

  it.each(['gzip', 'deflate', 'br'])('answers a body that does not decompress as %s with 400', async (encoding) => {
    const response = await fetch(`${gateway.url}/checkout_sessions`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json', 'Content-Encoding': encoding },
      body: 'not compressed at all',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_request', detail: expect.stringContaining(`not valid ${encoding} data`) });
  });

  it.each([
    ['a lone surrogate in a session field', '/checkout_sessions', '{"items":[{"product_id":"p-1"}],"customer":{"name":"\\ud800"}}', 'customer.name'],
    ['a NUL in a webhook payload', '/webhooks/emit', '{"event_type":"order.created","payload":{"note":"a\\u0000b"}}', 'payload.note'],
    ['a lone low surrogate in an object key', '/webhooks/emit', '{"event_type":"order.created","payload":{"\\udc00":1}}', 'payload.\udc00'],
  ])('refuses text that cannot be stored (%s) with 400 naming where, before anything runs', async (_name, path, body, param) => {
    const idempotencyKey = `unstorable-${path}-${param.length}`;
    const send = () => call(`${gateway.url}${path}`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey }, body });
    const sessionsBefore = await gateway.db.prisma.checkoutSession.count();
    for (const reply of [await send(), await send()]) {
      expect(reply.status).toBe(400); // the second too: nothing was stored or left in flight under the key
      expect(reply.body).toMatchObject({ code: 'invalid_request', param });
    }
    expect(await gateway.db.prisma.checkoutSession.count()).toBe(sessionsBefore);
  });

  it('reads a POST or PATCH without any body as an empty object: the contract names what is missing', async () => {
    const created = await call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers: auth() });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('items') });
    const typed = await call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' } });
    expect(typed.status).toBe(400);
    expect(typed.body.detail).toContain('items');
    const session = await call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers: auth(), json: { items: [{ product_id: 'p-1' }] } });
    const patched = await call(`${gateway.url}/checkout_sessions/${session.body.checkout_session.id}`, { method: 'PATCH', headers: auth() });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual(session.body);
  });

  it.each([
    ['page=0x10', 'page'],
    ['page_size=1e2', 'page_size'],
    ['page=99999999999999999999', 'page'],
    ['min_price=Infinity', 'min_price'],
    ['max_price=-1e999', 'max_price'],
  ])('refuses %s: query numbers are plain decimals, exact as integers', async (query, param) => {
    const reply = await call(`${gateway.url}/acp/products?${query}`, { headers: auth() });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param });
  });

  it('never answers with HTML or a stack trace', async () => {
    const response = await fetch(`${gateway.url}/acp/products/%E0%A4%A`, { headers: auth() });
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.text()).not.toMatch(/at .*\.(js|ts):\d+/);
  });
});
