/**
 * The operators' console: `GET /console` (and every path under it: the page routes itself)
 * answers one HTML shell, whose script and stylesheet — the bundle built from console/ into
 * dist/console by `pnpm build` — are served from `/console/assets/`. The shell holds no data:
 * everything the console shows it reads from the admin API with its session (admin/console-sessions.ts),
 * and the page's Content-Security-Policy allows this origin only.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Response } from 'express';
import { packageRoot } from '../db/paths.js';

export const consoleBuildDir = join(packageRoot, 'dist', 'console');

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

interface Asset {
  body: Buffer;
  /** A short digest of the body, in the shell's URLs, so that a new build is never read from a cache. */
  version: string;
}

function asset(name: string): Asset | undefined {
  try {
    const body = readFileSync(join(consoleBuildDir, name));
    return { body, version: createHash('sha256').update(body).digest('hex').slice(0, 12) };
  } catch {
    return undefined;
  }
}

const shell = (script: Asset, style: Asset) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Commerce Gateway console</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/console/assets/console.css?v=${style.version}" />
    <script defer src="/console/assets/console.js?v=${script.version}"></script>
  </head>
  <body>
    <div id="console"><noscript>The console needs JavaScript.</noscript></div>
  </body>
</html>
`;

function secure(res: Response): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
}

export function consoleRoutes(): Router {
  const router = Router();
  let built: { script: Asset; style: Asset; page: string } | undefined;
  const load = () => {
    if (built) return built;
    const script = asset('console.js');
    const style = asset('console.css');
    if (script && style) built = { script, style, page: shell(script, style) };
    return built;
  };
  router.get('/console/assets/:name', (req, res) => {
    const files = load();
    const file = req.params.name === 'console.js' ? files?.script : req.params.name === 'console.css' ? files?.style : undefined;
    if (!file) {
      res.status(404).type('text/plain').send('No such console asset');
      return;
    }
    secure(res);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(req.params.name.endsWith('.js') ? 'text/javascript' : 'text/css').send(file.body);
  });
  router.get(['/console', '/console/{*rest}'], (_req, res) => {
    const files = load();
    secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    if (!files) {
      res.status(503).type('text/plain').send('The console is not built: run `pnpm build` (it builds dist/console).');
      return;
    }
    res.type('html').send(files.page);
  });
  return router;
}
