import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../../contract/document.js';
import { InvalidRequestError } from '../../errors.js';

/**
 * Validates requests (and coerces query parameters, filling defaults) and
 * responses against the contract. A response that breaks the contract becomes
 * a logged 500: it is a bug in the gateway, never the caller's fault.
 *
 *   app.use(validate(loadContract()));
 */
export function validate(contract: OpenApiDocument): RequestHandler[] {
  return [finiteNumbers(numericQueryParameters(contract)), ...validator(contract)];
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
 * The validator's type coercion turns `1e999`, 400 digits or `Infinity` into Infinity, which
 * then passes `integer` and `minimum` and breaks the response: refuse non-finite numbers first.
 */
function finiteNumbers(names: Set<string>): RequestHandler {
  return (req, _res, next) => {
    for (const [name, raw] of Object.entries(req.query)) {
      if (!names.has(name)) continue;
      for (const value of [raw].flat()) {
        const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
        if (!Number.isNaN(number) && !Number.isFinite(number)) throw new InvalidRequestError(`${name} must be a finite number`, name);
      }
    }
    next();
  };
}

function validator(contract: OpenApiDocument): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(contract) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
    validateResponses: { removeAdditional: false },
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as RequestHandler[];
}
