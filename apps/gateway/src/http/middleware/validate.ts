import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../../contract/document.js';
import { InvalidRequestError } from '../../errors.js';

/**
 * Validates requests (and coerces query parameters, filling defaults) and, with
 * `responses` (VALIDATE_RESPONSES; on by default in development and in tests),
 * responses against the contract. A response that breaks the contract becomes
 * a logged 500: it is a bug in the gateway, never the caller's fault. It is a
 * guard for development, not a cost every production response pays (measured
 * in bench/http): the tests and the fuzz suite check every answer against the contract.
 *
 *   app.use(validate(loadContract(), { responses: true }));
 */
export function validate(contract: OpenApiDocument, { responses = true }: { responses?: boolean } = {}): RequestHandler[] {
  return [plainNumbers(numericQueryParameters(contract)), ...validator(contract, responses)];
}

/** Names of the query parameters the contract types as number or integer. */
function numericQueryParameters(contract: OpenApiDocument): Set<string> {
  const all = [
    ...Object.values(contract.components.parameters ?? {}),
    ...Object.values(contract.paths).flatMap((item) => Object.values(item).flatMap((op) => ((op as { parameters?: unknown[] })?.parameters ?? []))),
  ] as { in?: string; name?: string; schema?: { type?: string } }[];
  return new Set(all.filter((p) => p.in === 'query' && (p.schema?.type === 'number' || p.schema?.type === 'integer')).map((p) => p.name!));
}

/**
 * Numbers in the query in plain decimal notation only, and within the range where every integer
 * is exact: the validator's type coercion would read `0x10` as 16, `1e2` as 100, and `1e999`,
 * 400 digits or `Infinity` as Infinity, which passes `integer` and `minimum` and breaks the response.
 */
function plainNumbers(names: Set<string>): RequestHandler {
  return (req, _res, next) => {
    for (const [name, raw] of Object.entries(req.query)) {
      if (!names.has(name)) continue;
      for (const value of [raw].flat()) {
        if (typeof value !== 'string' || value.trim() === '') continue; // the validator names what is wrong
        const text = value.trim();
        if (!/^-?\d+(\.\d+)?$/.test(text)) throw new InvalidRequestError(`${name} must be a number written in decimal digits, like 2 or 19.99`, name);
        if (Math.abs(Number(text)) > Number.MAX_SAFE_INTEGER) throw new InvalidRequestError(`${name} is too large`, name);
      }
    }
    next();
  };
}

function validator(contract: OpenApiDocument, responses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(contract) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
    validateResponses: responses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as RequestHandler[];
}
