import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../../contract/document.js';

/**
 * Validates requests (and coerces query parameters, filling defaults) and
 * responses against the contract. A response that breaks the contract becomes
 * a logged 500: it is a bug in the gateway, never the caller's fault.
 *
 *   app.use(validate(loadContract()));
 */
export function validate(contract: OpenApiDocument): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(contract) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
    validateResponses: { removeAdditional: false },
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as RequestHandler[];
}
