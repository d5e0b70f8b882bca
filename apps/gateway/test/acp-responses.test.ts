import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOn } from '../src/server.js';
import { validateAcpResponses } from '../src/acp/acp-responses.js';

let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.use((req, _res, next) => {
    req.ctx = { requestId: 'req_test', operation: { operationId: 'acp.getCheckoutSession', method: 'GET', path: '/x', scopes: [], acceptsBody: false } };
    next();
  });
  app.use(validateAcpResponses(() => 'CheckoutSession', pino({ level: 'silent' })));
  app.get('/broken-session', (_req, res) => {
    res.json({ id: 'cs_1', status: 'open', currency: 'usd', line_items: [], totals: [], fulfillment_options: [], messages: [], links: [], capabilities: {} }); // 'open' is not an ACP status
  });
  app.get('/broken-error', (_req, res) => {
    res.status(400).json({ detail: 'our own shape', code: 'invalid_request' });
  });
  app.get('/fine', (_req, res) => {
    res.status(404).json({ type: 'invalid_request', code: 'not_found', message: 'No such session' });
  });
  const listening = await listenOn(app, '127.0.0.1', 0);
  url = listening.url;
  close = listening.close;
});

afterAll(() => close?.());

describe('validateAcpResponses', () => {
  it.each(['/broken-session', '/broken-error'])('turns an answer that breaks the official schema (%s) into a 500 processing_error', async (path) => {
    const reply = await fetch(`${url}${path}`);
    expect(reply.status).toBe(500);
    expect(await reply.json()).toEqual({ type: 'processing_error', code: 'internal_error', message: 'Internal error; quote the Request-Id when you report it' });
  });

  it('lets an official answer through untouched', async () => {
    const reply = await fetch(`${url}/fine`);
    expect(reply.status).toBe(404);
    expect(await reply.json()).toEqual({ type: 'invalid_request', code: 'not_found', message: 'No such session' });
  });
});
