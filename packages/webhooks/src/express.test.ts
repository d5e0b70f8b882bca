import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookMiddleware, type WebhookRequest } from './express.js';
import { sign } from './node.js';

const T = 1_700_000_000;
const SECRET = 'whsec_endpoint';
const body = (id = 'evt_1') => JSON.stringify({ id, type: 'order.created', created: '2023-11-14T22:13:20Z', data: { object: { id: 'ord_1' } } });

type Req = IncomingMessage & WebhookRequest;
type Next = (error?: unknown) => void;

/** The part of express.raw({ type: 'application/json' }) the middleware relies on: the body as a Buffer. */
const rawBody = (req: Req, _res: ServerResponse, next: Next) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => ((req.body = Buffer.concat(chunks)), next()));
};
/** What express.json() would have done instead: the mistake the middleware must catch. */
const jsonBody = (req: Req, res: ServerResponse, next: Next) =>
  rawBody(req, res, () => ((req.body = JSON.parse(String(req.body))), next()));

/** A tiny connect-style chain on node:http, ending in a handler that echoes the verified event. */
function serve(...chain: Array<(req: Req, res: ServerResponse, next: Next) => void>): Server {
  return createServer((req: Req, res) => {
    const run = (i: number, error?: unknown): void => {
      if (error) {
        res.statusCode = 500;
        res.end(JSON.stringify({ unexpected: String(error) }));
      } else if (i < chain.length) chain[i]!(req, res, (e) => run(i + 1, e));
      else res.end(JSON.stringify({ handled: req.webhookEvent }));
    };
    run(0);
  });
}

const servers: Record<string, Server> = {
  raw: serve(rawBody, webhookMiddleware({ secret: SECRET, now: () => T * 1000 })),
  rotating: serve(rawBody, webhookMiddleware({ secret: ['whsec_new', SECRET], now: () => T * 1000 })),
  parsed: serve(jsonBody, webhookMiddleware({ secret: SECRET, now: () => T * 1000 })),
  brokenClock: serve(rawBody, webhookMiddleware({ secret: SECRET, now: () => { throw new Error('clock is broken'); } })),
};
beforeAll(() => Promise.all(Object.values(servers).map((s) => new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok)))));
afterAll(() => Promise.all(Object.values(servers).map((s) => new Promise((ok) => s.close(ok)))));

async function deliver(server: keyof typeof servers, payload: string, headers: Record<string, string>) {
  const { port } = servers[server]!.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: payload,
  });
  return { status: res.status, type: res.headers.get('content-type'), json: (await res.json()) as Record<string, any> };
}
const signed = (payload: string, timestamp = T, secret = SECRET) => ({ 'x-webhook-signature': sign(payload, secret, { timestamp }) });

describe('webhookMiddleware on a node:http server', () => {
  it('verifies a delivery and hands the parsed event to the next handler', async () => {
    const res = await deliver('raw', body(), signed(body()));
    expect(res).toMatchObject({ status: 200, json: { handled: JSON.parse(body()) } });
  });

  it('accepts a delivery signed with either secret during a rotation', async () => {
    expect((await deliver('rotating', body(), signed(body()))).status).toBe(200);
    expect((await deliver('rotating', body(), signed(body(), T, 'whsec_new'))).status).toBe(200);
  });

  it.each([
    ['a tampered body', () => deliver('raw', body('evt_2'), signed(body())), 'signature_mismatch'],
    ['the wrong secret', () => deliver('raw', body(), signed(body(), T, 'whsec_other')), 'signature_mismatch'],
    ['no signature header', () => deliver('raw', body(), {}), 'missing_header'],
    ['a malformed header', () => deliver('raw', body(), { 'x-webhook-signature': 'v1=abc' }), 'malformed_header'],
    ['a stale timestamp', () => deliver('raw', body(), signed(body(), T - 301)), 'timestamp_too_old'],
    ['a body already parsed by a JSON parser', () => deliver('parsed', body(), signed(body())), 'invalid_body'],
  ])('answers 400 with the reason for %s', async (_, attempt, reason) => {
    const res = await attempt();
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/json/);
    expect(res.json).toEqual({ error: { type: 'webhook_verification_error', reason, message: expect.any(String) } });
  });

  it('tells the developer to use express.raw when the body was parsed', async () => {
    const res = await deliver('parsed', body(), signed(body()));
    expect(res.json.error.message).toContain("express.raw({ type: 'application/json' })");
  });

  it('passes unexpected errors to next() instead of answering 400', async () => {
    const res = await deliver('brokenClock', body(), signed(body()));
    expect(res).toMatchObject({ status: 500, json: { unexpected: 'Error: clock is broken' } });
  });

  it('refuses an empty secret when created, not at the first delivery', () => {
    expect(() => webhookMiddleware({ secret: '' })).toThrow(expect.objectContaining({ reason: 'invalid_secret' }));
    expect(() => webhookMiddleware({ secret: process.env.UNSET_WEBHOOK_SECRET as string })).toThrow(/environment variable/);
  });
});
