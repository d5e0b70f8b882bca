/**
 * The API reference: `GET /docs` renders, with Scalar's standalone browser bundle
 * served from the installed package (no CDN, no fonts or telemetry from elsewhere —
 * the page's Content-Security-Policy only allows this origin), two documents side by
 * side: our API (`GET /openapi.json`, the contract itself, shown first), the ACP
 * 2026-04-17 profile (`GET /acp/openapi.json`: the official agentic-checkout document,
 * served under this gateway's `/acp` with a note on how the profile answers) and the UCP
 * profile (`GET /ucp/openapi.json`: the official 2026-04-08 REST binding, under `/ucp`) and the
 * operators' admin API (`GET /docs/admin/openapi.json`: its own contract, whose paths carry `/admin`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router, type Response } from 'express';
import { acpProfileDocument } from '../acp/acp-document.js';
import { adminContractPath } from '../admin/admin-document.js';
import { contractPath } from '../contract/document.js';
import { ucpProfileDocument } from '../ucp/ucp-document.js';

const require = createRequire(import.meta.url);
/** @scalar/api-reference's self-contained browser build (`Scalar.createApiReference`). */
export const scalarBundlePath: string = join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Commerce Gateway API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <!-- not id="api-reference": the bundle auto-mounts a second, unconfigured reference on that id -->
    <div id="reference"></div>
    <script src="/docs/scalar.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

const COMMON = `
  withDefaultFonts: false,
  telemetry: false,
  mcp: { disabled: true },
  agent: { disabled: true },
  hideClientButton: false,
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  defaultOpenAllTags: true,`;

// A file of its own rather than an inline script, so the CSP needs no 'unsafe-inline' for scripts.
// Four documents (Scalar's array of configurations), each with its own servers: our API at this origin, shown
// first, the ACP profile under /acp (`/docs?api=acp`), the UCP profile under /ucp (`/docs?api=ucp`) and the
// admin API, whose paths carry /admin themselves (`/docs?api=admin`).
const INIT = `Scalar.createApiReference('#reference', [
  {
    title: 'Commerce Gateway API',
    slug: 'commerce-gateway',
    url: '/openapi.json',
    default: true,
    servers: [{ url: window.location.origin, description: 'This gateway' }],${COMMON}
    metaData: { title: 'Commerce Gateway API reference' },
  },
  {
    title: 'Agentic Commerce Protocol 2026-04-17',
    slug: 'acp',
    url: '/acp/openapi.json',
    servers: [{ url: window.location.origin + '/acp', description: 'This gateway (ACP profile)' }],${COMMON}
    metaData: { title: 'Commerce Gateway API reference' },
  },
  {
    title: 'Universal Commerce Protocol 2026-04-08',
    slug: 'ucp',
    url: '/ucp/openapi.json',
    servers: [{ url: window.location.origin + '/ucp', description: 'This gateway (UCP profile)' }],${COMMON}
    metaData: { title: 'Commerce Gateway API reference' },
  },
  {
    title: 'Commerce Gateway admin API',
    slug: 'admin',
    url: '/docs/admin/openapi.json',
    servers: [{ url: window.location.origin, description: 'This gateway (operator credentials)' }],${COMMON}
    metaData: { title: 'Commerce Gateway API reference' },
  },
]);
`;

function page(res: Response, type: string, body: string | Buffer, cacheSeconds: number): void {
  res.setHeader('Cache-Control', `public, max-age=${cacheSeconds}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type(type).send(body);
}

export function docsRoutes(): Router {
  const router = Router();
  let contract: Buffer | undefined;
  let acp: string | undefined;
  let ucp: string | undefined;
  let admin: Buffer | undefined;
  let bundle: Buffer | undefined;

  router.get('/openapi.json', (_req, res) => {
    contract ??= readFileSync(contractPath);
    res.setHeader('Access-Control-Allow-Origin', '*'); // a public document: any tool may fetch it
    page(res, 'application/json', contract, 300);
  });
  router.get('/acp/openapi.json', (_req, res) => {
    acp ??= JSON.stringify(acpProfileDocument());
    res.setHeader('Access-Control-Allow-Origin', '*');
    page(res, 'application/json', acp, 300);
  });
  router.get('/ucp/openapi.json', (_req, res) => {
    ucp ??= JSON.stringify(ucpProfileDocument());
    res.setHeader('Access-Control-Allow-Origin', '*');
    page(res, 'application/json', ucp, 300);
  });
  router.get('/docs/admin/openapi.json', (_req, res) => {
    admin ??= readFileSync(adminContractPath);
    res.setHeader('Access-Control-Allow-Origin', '*');
    page(res, 'application/json', admin, 300);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Referrer-Policy', 'no-referrer');
    page(res, 'html', PAGE, 300);
  });
  router.get('/docs/init.js', (_req, res) => page(res, 'text/javascript', INIT, 300));
  router.get('/docs/scalar.js', (_req, res) => {
    bundle ??= readFileSync(scalarBundlePath);
    page(res, 'text/javascript', bundle, 86_400);
  });
  return router;
}
