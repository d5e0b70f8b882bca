import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../../contract/document.js';
import { COUNTRY_FORMAT } from '../../contract/kept-field-limits.js';
import { InvalidRequestError } from '../../kernel/errors.js';
import { compose } from '../compose.js';
import { ParameterCheck } from './parameter-check.js';

/**
 * Validates requests (coercing query and header parameters from strings, never
 * the JSON body; filling defaults) and, with
 * `responses` (VALIDATE_RESPONSES; on by default in development and in tests),
 * responses against the contract. A response that breaks the contract becomes
 * a logged 500: it is a bug in the gateway, never the caller's fault. It is a
 * guard for development, not a cost every production response pays (measured
 * in bench/http): the tests and the fuzz suite check every answer against the contract.
 *
 * The parameters of a body-less operation (the catalog reads) are first offered to a
 * ParameterCheck compiled from the same contract (parameter-check.ts); what it does not accept,
 * and every request with a body, express-openapi-validator checks — and words every refusal.
 * `parameterCheck: false` leaves every request to the validator (the reference the tests compare with).
 * Reads `req.ctx.operation` (matchOperation runs first); leaves the parameters as the contract
 * reads them in `req.ctx.query` (Express 5 parses `req.query` again at every read and will not
 * let it be assigned).
 *
 * Two validators, each built with the validator's documented options only — one validates
 * requests, the other (when `responses`) responses — so that the fast check can stand in for
 * the first without picking the validator's internal middleware apart.
 *
 *   app.use(compose([matchOperation(table), ...validate(loadContract(), { responses: true })]));
 */
export function validate(contract: OpenApiDocument, { responses = true, parameterCheck = true }: { responses?: boolean; parameterCheck?: boolean } = {}): RequestHandler[] {
  const requests = compose([...validator(contract, { requests: true }), holdQuery]);
  const check = parameterCheck ? new ParameterCheck(contract) : undefined;
  const parameters: RequestHandler = (req, res, next) => {
    const operation = req.ctx.operation;
    if (check && operation && check.accepts(req, operation, req.ctx.pathParams ?? {})) return next();
    return requests(req, res, next);
  };
  const answers = responses ? [compose(validator(contract, { responses: true }))] : [];
  return [holdQuery, plainNumbers(numericQueryParameters(contract)), parameters, ...answers];
}

/**
 * `req.query` into `req.ctx.query`: first as Express's `query parser` reads it (one parse per
 * request), then, after the validator, as the validator left it — coerced and defaulted, on an
 * own `req.query` property it defines.
 */
const holdQuery: RequestHandler = (req, _res, next) => {
  req.ctx.query = req.query as Record<string, unknown>;
  next();
};

interface Parameter {
  in?: string;
  name?: string;
  allowReserved?: boolean;
  schema?: { type?: string };
}

/** Every parameter object of the contract (components, path items, operations), by reference. */
function parametersOf(contract: OpenApiDocument): Parameter[] {
  const listed = (holder: unknown) => ((holder as { parameters?: unknown } | null)?.parameters ?? []) as Parameter[];
  return [
    ...(Object.values(contract.components.parameters ?? {}) as Parameter[]),
    ...Object.values(contract.paths).flatMap((item) => [...listed(item), ...Object.values(item ?? {}).flatMap(listed)]),
  ].filter((p) => typeof p === 'object' && p !== null);
}

/** Names of the query parameters the contract types as number or integer. */
function numericQueryParameters(contract: OpenApiDocument): Set<string> {
  return new Set(parametersOf(contract).filter((p) => p.in === 'query' && (p.schema?.type === 'number' || p.schema?.type === 'integer')).map((p) => p.name!));
}

/**
 * Numbers in the query in plain decimal notation only, and within the range where every integer
 * is exact: the validator's type coercion would read `0x10` as 16, `1e2` as 100, and `1e999`,
 * 400 digits or `Infinity` as Infinity, which passes `integer` and `minimum` and breaks the response.
 */
function plainNumbers(names: Set<string>): RequestHandler {
  return (req, _res, next) => {
    for (const [name, raw] of Object.entries(req.ctx.query ?? {})) {
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

/**
 * The validator's copy of the contract, with every query parameter `allowReserved`. The query
 * string is read as `application/x-www-form-urlencoded` (Express: `+` is a space, `%2B` a plus);
 * whether a client percent-encodes `/ : , ( ) ' * !` there is its own choice (RFC 3986 allows
 * them), so the validator's refusal of a raw reserved character ("may not contain reserved
 * characters"), and of `+`, must never reach a caller — whatever a parameter declares.
 */
function serverReading(contract: OpenApiDocument, requests: boolean): OpenApiDocument {
  const copy = structuredClone(contract);
  for (const parameter of parametersOf(copy)) if (parameter.in === 'query') parameter.allowReserved = true;
  // A request's country is an assigned ISO 3166-1 alpha-2 code, as ACP's and UCP's are (contract/kept-field-limits.ts);
  // answers are not held to it (a session kept before the rule still reads).
  const country = (copy.components.schemas?.Address as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties?.country;
  if (requests && country) country.format = COUNTRY_FORMAT.name;
  return copy;
}

function validator(contract: OpenApiDocument, side: { requests?: boolean; responses?: boolean }): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: serverReading(contract, side.requests ?? false) as never,
    formats: [COUNTRY_FORMAT],
    // coerceTypes: false leaves the JSON body as it was sent (`"5"` is not 5, `true` not 1): the
    // validator coerces query, path and header parameters — strings on the wire — whatever this says.
    validateRequests: side.requests ? { allowUnknownQueryParameters: false, coerceTypes: false } : false,
    validateResponses: side.responses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as RequestHandler[];
}
