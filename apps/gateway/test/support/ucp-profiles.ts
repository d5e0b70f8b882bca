/**
 * Platform profiles for UCP tests (valid against each release's platform profile schema) and a
 * real local HTTP server that serves them — with a Cache-Control, slowly, oversized, as a
 * redirect — counting every request it answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function platformProfile(version: '2026-01-11' | '2026-04-08' | string = '2026-04-08'): Record<string, unknown> {
  if (version === '2026-01-11') {
    return {
      ucp: {
        version,
        services: { 'dev.ucp.shopping': { version, spec: 'https://ucp.dev/specification/overview', rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint: 'https://agent.example/ucp' } } },
        capabilities: [{ name: 'dev.ucp.shopping.checkout', version, spec: 'https://ucp.dev/specification/checkout', schema: 'https://ucp.dev/schemas/shopping/checkout.json' }],
      },
    };
  }
  const base = `https://ucp.dev/${version}`;
  return {
    ucp: {
      version,
      services: { 'dev.ucp.shopping': [{ version, spec: `${base}/specification/overview`, transport: 'rest', schema: `${base}/services/shopping/rest.openapi.json` }] },
      capabilities: { 'dev.ucp.shopping.checkout': [{ version, spec: `${base}/specification/checkout`, schema: `${base}/schemas/shopping/checkout.json` }] },
      payment_handlers: {},
    },
  };
}

type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface ProfileServer {
  url: string;
  /** Requests answered, by path. */
  hits: Map<string, number>;
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startProfileServer(): Promise<ProfileServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (route) return route(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `body` as JSON with the given headers. */
export const json =
  (body: unknown, headers: Record<string, string> = {}): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
  };
