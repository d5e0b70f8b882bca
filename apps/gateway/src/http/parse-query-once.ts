import type { Express, Request } from 'express';

const parsed = Symbol('parsed query');
type Holder = Request & { [parsed]?: unknown };

/**
 * Express 5 parses the query string again at every read of `req.query` (a getter on its request
 * prototype), and the edge reads it several times a request. On this app's requests it is parsed
 * once, at the first read, and may be assigned: request validation leaves the query there as it
 * read it (numbers coerced, defaults filled) — without redefining a property on every request,
 * which costs more than the parse (bench/http's CPU profile).
 *
 *   parseQueryOnce(app); // before the app serves
 */
export function parseQueryOnce(app: Express): void {
  const express = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(app.request) as object, 'query');
  const parse = express?.get;
  if (!parse) throw new Error('parseQueryOnce: Express no longer defines req.query as a getter');
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    enumerable: true,
    get(this: Holder) {
      // No query string (most reads by id): what Express's parser answers for one, without it.
      if (this[parsed] === undefined) this[parsed] = this.url.includes('?') ? parse.call(this) : Object.create(null);
      return this[parsed];
    },
    set(this: Holder, value: unknown) {
      this[parsed] = value;
    },
  });
}
