import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpWebhookMiddleware, type AcpWebhookRequest } from './acp-express.js';
import { signAcp } from './acp-node.js';

const T = 1_709_123_456;
const SECRET = 'whsec_acp';
const BODY = JSON.stringify({ type: 'order_create', data: { type: 'order', id: 'ord_1', checkout_session_id: 'cs_1', permalink_url: 'https://shop.example/orders/ord_1', status: 'created' } });

type Req = IncomingMessage & AcpWebhookRequest;
type Next = (error?: unknown) => void;

/** What express.raw({ type: 'application/json' }) does: the body as a Buffer. */
const rawBody = (req: Req, _res: ServerResponse, next: Next) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => ((req.body = Buffer.concat(chunks)), next()));
};
const middleware = acpWebhookMiddleware({ secret: SECRET, now: () => T * 1000 });
const server: Server = createServer((req: Req, res) => {
  rawBody(req, res, () => middleware(req, res, (error) => {
    res.statusCode = error ? 500 : 200;
    res.end(JSON.stringify(error ? { unexpected: String(error) } : { received: true, event: req.acpEvent }));
  }));
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (headers: Record<string, string>, body = BODY) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('acpWebhookMiddleware', () => {
  it('passes a verified delivery on with req.acpEvent', async () => {
    const response = await post({ 'merchant-signature': signAcp(BODY, SECRET, { timestamp: T }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, event: JSON.parse(BODY) });
  });

  it.each([
    ['a missing header', {}],
    ['a signature of another secret', { 'merchant-signature': signAcp(BODY, 'whsec_other', { timestamp: T }) }],
    ['a replay from an hour ago', { 'merchant-signature': signAcp(BODY, SECRET, { timestamp: T - 3600 }) }],
  ])('answers %s with 401 and ACP\'s Error shape, as the webhook spec says', async (_, headers) => {
    const response = await post(headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'invalid_request', code: 'invalid_signature', message: expect.any(String) });
  });

  it('refuses a missing secret at start-up', () => {
    expect(() => acpWebhookMiddleware({ secret: '' })).toThrow(/secret/);
  });
});
