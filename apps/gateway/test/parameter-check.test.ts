/**
 * ParameterCheck (the catalog reads' compiled parameter check) against express-openapi-validator
 * alone: the same contract, the same edge before them, real HTTP — every request of a corpus must
 * get the same status, the same body (the validator's refusals word for word), and the handler
 * must see the same query and headers.
 */
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import type { Server } from 'node:http';
import express, { type Request } from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/document.js';
import { OperationTable } from '../src/contract/operations.js';
import { compose } from '../src/http/compose.js';
import { apiErrors } from '../src/http/api-errors.js';
import { problemHandler } from '../src/http/edge.js';
import { matchOperation } from '../src/http/middleware/match-operation.js';
import { ParameterCheck } from '../src/http/middleware/parameter-check.js';
import { requestId } from '../src/http/middleware/request-id.js';
import { validate } from '../src/http/middleware/validate.js';

const contract = loadContract();
const HEADERS = ['api-version', 'request-id', 'merchant-id', 'signature', 'timestamp', 'accept-language'];

function echoApp(options: { parameterCheck: boolean; responses: boolean; answer?: (req: Request) => unknown }): express.Express {
  const app = express();
  app.use(compose([requestId(), matchOperation(new OperationTable(contract)), ...validate(contract, options)]));
  app.use((req, res) => {
    res.json(
      options.answer?.(req) ?? {
        query: { ...req.ctx.query }, // the query as validated (req.params: Express's own, set again by each route)
        headers: Object.fromEntries(HEADERS.map((name) => [name, req.headers[name] ?? null])),
      },
    );
  });
  app.use(problemHandler(() => apiErrors, pino({ level: 'silent' })));
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function answer(base: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: unknown }> {
  const response = await fetch(base + path, { method, headers });
  const text = await response.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  if (body && typeof body === 'object') delete body.request_id; // differs between the two servers by nature
  return { status: response.status, body };
}

const PATHS = ['/acp/products', '/acp/products/search', '/acp/products/', '/acp/products/p_1', '/acp/products/%E2%82%AC', `/acp/products/${'x'.repeat(200)}`, `/acp/products/${'x'.repeat(201)}`, '/checkout_sessions/cs_1', `/checkout_sessions/${'c'.repeat(101)}`];

const QUERIES = [
  '', 'q=chair', 'q=', 'q=a&q=b', `q=${'x'.repeat(500)}`, `q=${'x'.repeat(501)}`, 'q=1', 'q=a+b', 'q=%E2%82%AC', 'q=a,b', 'q=(x)%2Ctrue',
  'category=chairs&max_price=200', 'max_price=-1', 'max_price=abc', 'max_price=1.5', 'max_price=true', 'min_price=0', 'min_price=00012',
  'page=0', 'page=1', 'page=2.5', 'page=abc', 'page=1&page=2', 'page_size=100', 'page_size=101', 'page_size=-0', 'page_size=+5',
  'facets=category', 'facets=category,brand', 'facets=category,category', 'facets=category,brand,price,category', 'facets=x', 'facets=category&facets=brand',
  'facets=category,brand&facets=price', 'facets=', 'facets=,', 'facets=category,', 'unknown=1', 'a[b]=1', 'facets[]=category', 'tag=red&tag=blue', 'tag', 'q', '&&', '=x',
  `tag=${'t'.repeat(101)}`, 'category=%00', 'q=%ZZ',
];

const HEADER_SETS: Record<string, string>[] = [
  {},
  { 'API-Version': '2026-11-01' },
  { 'API-Version': '2020-01-01' },
  { 'Request-Id': 'r'.repeat(201) },
  { 'Merchant-Id': 'm'.repeat(101), 'Accept-Language': 'fr' },
  { Timestamp: 't'.repeat(65) },
];

/** A reproducible random query: keys and values drawn from the corpus's pieces. */
function randomQueries(count: number): string[] {
  let seed = 13;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const keys = ['q', 'category', 'tag', 'min_price', 'max_price', 'facets', 'page', 'page_size', 'other'];
  const values = ['', '0', '1', '-1', '2.5', '100', '101', 'chairs', 'category', 'brand,price', 'price,price', 'x%20y', '1e2', 'null', 'true'];
  return Array.from({ length: count }, () => Array.from({ length: 1 + next(4) }, () => `${keys[next(keys.length)]}=${values[next(values.length)]}`).join('&'));
}

describe('ParameterCheck', () => {
  const servers: Server[] = [];
  let checked: string;
  let reference: string;

  beforeAll(async () => {
    const a = await listen(echoApp({ parameterCheck: true, responses: false }));
    const b = await listen(echoApp({ parameterCheck: false, responses: false }));
    servers.push(a.server, b.server);
    [checked, reference] = [a.url, b.url];
  });
  afterAll(() => servers.forEach((server) => server.close()));

  it('compiles the catalog reads and the session read, none of the operations with a body', () => {
    const check = new ParameterCheck(contract);
    for (const id of ['searchProducts', 'searchProductsAlias', 'getProduct', 'getCheckoutSession']) expect(check.covers(id), id).toBe(true);
    for (const id of ['createCheckoutSession', 'updateCheckoutSession', 'emitWebhook']) expect(check.covers(id), id).toBe(false);
  });

  it('answers every request of the corpus as express-openapi-validator does', async () => {
    const cases: [string, Record<string, string>, string][] = [];
    for (const path of PATHS) for (const query of QUERIES) cases.push([query ? `${path}?${query}` : path, {}, 'GET']);
    for (const headers of HEADER_SETS) for (const path of PATHS.slice(0, 5)) cases.push([`${path}?page=2`, headers, 'GET']);
    for (const query of randomQueries(400)) cases.push([`/acp/products?${query}`, {}, 'GET']);
    cases.push(['/acp/products?page=abc', {}, 'HEAD'], ['/acp/products/p_1?page=1', {}, 'HEAD'], ['/checkout_sessions/cs_1', {}, 'DELETE']);
    const check = new ParameterCheck(contract);
    const table = new OperationTable(contract);
    let accepted = 0;
    for (const [path, headers, method] of cases) {
      const [mine, theirs] = await Promise.all([answer(checked, path, headers, method), answer(reference, path, headers, method)]);
      expect(mine, `${method} ${path} ${JSON.stringify(headers)}`).toEqual(theirs);
      if (mine.status !== 200 || method !== 'GET') continue;
      accepted++;
      // …and what the validator accepts, the check accepts itself (a check that refused all would pass the comparison above).
      const [pathname, search = ''] = path.split('?');
      if (search.includes('[')) continue; // bracket notation (`facets[]=…`) is the validator's alone
      const match = table.match(method, pathname!);
      if (match.kind !== 'operation') throw new Error(`no operation for ${path}`);
      const request = { method, ctx: { query: parseQuery(search) }, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), params: {} } as unknown as Request;
      expect(check.accepts(request, match.operation, match.params), path).toBe(true);
      expect({ ...request.ctx.query }, path).toEqual((theirs.body as { query: unknown }).query);
    }
    // The corpus holds both kinds in number: a test of refusals only would prove nothing about acceptance.
    expect(accepted).toBeGreaterThan(150);
    expect(cases.length - accepted).toBeGreaterThan(150);
  }, 180_000); // ~1,000 requests to two apps: minutes on a busy 2-core machine

  it('accepts what the contract allows, leaving it coerced, split and defaulted; refuses the rest', () => {
    const check = new ParameterCheck(contract);
    const operation = new OperationTable(contract).match('GET', '/acp/products');
    if (operation.kind !== 'operation') throw new Error('no operation');
    const request = (query: Record<string, unknown>, headers: Record<string, string> = {}) => ({ method: 'GET', ctx: { query }, headers, params: {} }) as unknown as Request;
    const good = request({ q: 'lamp', max_price: '19.5', facets: 'category,brand' });
    expect(check.accepts(good, operation.operation, {})).toBe(true);
    expect({ ...good.ctx.query }).toEqual({ q: 'lamp', max_price: 19.5, facets: ['category', 'brand'], page: 1, page_size: 10 });
    expect(good.headers['api-version']).toBe('2026-11-01');
    for (const query of [{ page: '0' }, { page_size: '101' }, { facets: 'category,category' }, { q: '' }, { other: '1' }, { q: ['a', 'b'] }, { max_price: 'abc' }]) {
      expect(check.accepts(request(query), operation.operation, {}), JSON.stringify(query)).toBe(false);
    }
    expect(check.accepts(request({}, { 'api-version': 'nope' }), operation.operation, {})).toBe(false);
    expect(check.accepts({ ...request({}), method: 'HEAD' } as Request, operation.operation, {})).toBe(false); // HEAD: as the validator (which does not check it)
  });

  it('keeps response validation on the requests it accepts', async () => {
    const guarded = await listen(echoApp({ parameterCheck: true, responses: true, answer: () => ({ not: 'a product' }) }));
    servers.push(guarded.server);
    const reply = await answer(guarded.url, '/acp/products/p_1', {});
    expect(reply.status).toBe(500);
  });
});
