/**
 * A local agent-hosted Feed API for tests, implementing the official contract of ACP
 * 2026-04-17 (openapi.feed.yaml): POST /feeds, GET /feeds/{id}, GET and PATCH
 * /feeds/{id}/products, with bearer auth and API-Version. Every request body is validated
 * against the document's request schema (400 in ACP's Error shape, and recorded in
 * `invalid`), every answer against its response schema. Answers can be scripted (429 with
 * Retry-After, 503) per request. It answers under any base path.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedApiOperations, type FeedApiOperation } from './acp-schemas.js';

export interface FeedRequest {
  method: string;
  path: string;
  /** The operation's path template, e.g. `/feeds/{id}/products`. */
  operation: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

/** Answers a request instead of the service (e.g. a 429); return true when it answered. */
export type Script = (req: FeedRequest, res: ServerResponse) => boolean;

export interface FeedService {
  url: string;
  token: string;
  requests: FeedRequest[];
  /** Requests whose body broke the contract, with the validator's errors. */
  invalid: { request: FeedRequest; errors: unknown }[];
  /** Answers of ours that broke the contract (a bug in this test service). */
  invalidResponses: unknown[];
  feeds: Map<string, { metadata: { id: string; target_country?: string; updated_at: string }; products: Map<string, unknown> }>;
  scripts: Script[];
  close(): Promise<void>;
}

function match(operations: FeedApiOperation[], method: string, path: string): { operation: FeedApiOperation; id?: string } | undefined {
  for (const operation of operations) {
    if (operation.method !== method) continue;
    // The API may sit under a base path (https://agent.example/api/feeds…).
    const pattern = new RegExp(`^(?:/[\\w.-]+)*?${operation.path.replace('{id}', '([^/]+)')}$`);
    const found = pattern.exec(path);
    if (found) return { operation, ...(found[1] ? { id: decodeURIComponent(found[1]) } : {}) };
  }
  return undefined;
}

export async function startFeedService(token = `feed_token_${randomBytes(6).toString('hex')}`): Promise<FeedService> {
  const operations = feedApiOperations();
  const service: FeedService = { url: '', token, requests: [], invalid: [], invalidResponses: [], feeds: new Map(), scripts: [], close: async () => {} };

  const send = (res: ServerResponse, operation: FeedApiOperation | undefined, status: number, body: unknown) => {
    const validate = operation?.responses[String(status)];
    if (validate && !validate(body)) service.invalidResponses.push({ status, body, errors: validate.errors });
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const error = (code: string, message: string, param?: string) => ({ type: 'invalid_request', code, message, ...(param ? { param } : {}) });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://feed.local').pathname;
      const found = match(operations, req.method ?? '', path);
      let body: unknown;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        body = Symbol('not json');
      }
      const request: FeedRequest = { method: req.method ?? '', path, operation: found?.operation.path ?? '', headers: req.headers, body, at: Date.now() };
      service.requests.push(request);
      if (!found) return send(res, undefined, 404, error('not_found', `No route ${req.method} ${path}`));
      const { operation, id } = found;
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, undefined, 401, error('unauthorized', 'Bearer token required'));
      if (!req.headers['api-version']) return send(res, undefined, 400, error('missing_api_version', 'API-Version is required'));
      if (operation.request && !operation.request(body)) {
        service.invalid.push({ request, errors: operation.request.errors });
        return send(res, operation, 400, error('invalid_request', 'The body does not match the Feed API schema'));
      }
      for (const script of service.scripts) if (script(request, res)) return;
      const now = new Date().toISOString();
      if (operation.method === 'POST') {
        const feedId = `feed_${randomBytes(4).toString('hex')}`;
        const metadata = { id: feedId, ...((body as { target_country?: string }).target_country ? { target_country: (body as { target_country: string }).target_country } : {}), updated_at: now };
        service.feeds.set(feedId, { metadata, products: new Map() });
        return send(res, operation, 201, metadata);
      }
      const feed = service.feeds.get(id!);
      if (!feed) return send(res, operation, 404, error('feed_not_found', 'Feed not found', 'id'));
      if (operation.method === 'GET' && operation.path === '/feeds/{id}') return send(res, operation, 200, feed.metadata);
      if (operation.method === 'GET') return send(res, operation, 200, { products: [...feed.products.values()] });
      for (const product of (body as { products: { id: string }[] }).products) feed.products.set(product.id, product);
      feed.metadata.updated_at = now;
      return send(res, operation, 200, { id: feed.metadata.id, accepted: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return service;
}
