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

const SHOPPING_CAPABILITIES: [name: string, doc: string, schema: string, extendsCheckout: boolean][] = [
  ['dev.ucp.shopping.checkout', 'checkout', 'checkout', false],
  ['dev.ucp.shopping.fulfillment', 'fulfillment', 'fulfillment', true],
  ['dev.ucp.shopping.discount', 'discount', 'discount', true],
  ['dev.ucp.shopping.buyer_consent', 'buyer-consent', 'buyer_consent', true],
  ['dev.ucp.shopping.order', 'order', 'order', false],
];

/**
 * A shopping platform's profile: checkout with its extensions and the order capability, whose
 * `config.webhook_url` (when given) is where the business sends order webhooks.
 */
export function shoppingPlatformProfile(version: '2026-01-11' | '2026-04-08', webhookUrl?: string): Record<string, unknown> {
  const base = version === '2026-01-11' ? 'https://ucp.dev' : `https://ucp.dev/${version}`;
  const profile = platformProfile(version) as { ucp: Record<string, unknown> };
  const entry = ([name, doc, schema, extension]: (typeof SHOPPING_CAPABILITIES)[number]) => ({
    version,
    spec: `${base}/specification/${doc}`,
    schema: `${base}/schemas/shopping/${schema}.json`,
    ...(extension ? { extends: 'dev.ucp.shopping.checkout' } : {}),
    ...(name === 'dev.ucp.shopping.order' && webhookUrl ? { config: { webhook_url: webhookUrl } } : {}),
  });
  profile.ucp.capabilities =
    version === '2026-01-11'
      ? SHOPPING_CAPABILITIES.map((capability) => ({ name: capability[0], ...entry(capability) }))
      : Object.fromEntries(SHOPPING_CAPABILITIES.map((capability) => [capability[0], [entry(capability)]]));
  return profile;
}
