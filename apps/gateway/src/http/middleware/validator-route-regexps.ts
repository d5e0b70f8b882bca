/**
 * express-openapi-validator finds a request's contract route by compiling every contract path
 * with path-to-regexp on every request (`lookupRoute` in its openapi.metadata.js): about 5 % of
 * a catalog read's CPU in bench/http, and garbage. Its compilations are memoized here, by path
 * and options: the same regular expressions (stateless, no `g` flag), made once per process.
 * Only the validator's calls through the module's exports are affected; path-to-regexp's own
 * `match` (Express's router) calls its local function.
 */
import { createRequire } from 'node:module';

type PathToRegexp = (path: unknown, options?: { sensitive?: boolean; strict?: boolean; [option: string]: unknown }) => unknown;

const MAX_ENTRIES = 1_000;
let installed = false;

export function memoizeValidatorRouteRegexps(): void {
  if (installed) return;
  installed = true;
  const fromHere = createRequire(import.meta.url);
  const fromValidator = createRequire(fromHere.resolve('express-openapi-validator'));
  const module = fromValidator('path-to-regexp') as { pathToRegexp: PathToRegexp };
  const compile = module.pathToRegexp;
  const made = new Map<string, unknown>();
  module.pathToRegexp = (path, options = {}) => {
    const { sensitive, strict, ...other } = options;
    if (typeof path !== 'string' || Object.keys(other).length > 0) return compile(path, options);
    const key = `${sensitive ? 's' : '-'}${strict ? 's' : '-'}${path}`;
    let regexp = made.get(key);
    if (regexp === undefined) {
      regexp = compile(path, options);
      if (made.size < MAX_ENTRIES) made.set(key, regexp);
    }
    return regexp;
  };
}
