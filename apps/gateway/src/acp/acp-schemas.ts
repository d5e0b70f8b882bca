/**
 * The official ACP 2026-04-17 JSON Schema (vendored unmodified in openapi/acp/), compiled by the
 * one Ajv set-up of contract/schemas.ts:
 * responses are validated against it before they are sent; requests against the profile's copy of
 * it (request-schema.ts: `quantity`, `items`, lengths, countries) before anything runs.
 * The JSON Schema, not the OpenAPI document, because it is the consistent one of the two: the
 * OpenAPI `CheckoutSessionBase` forbids the `order` that `CheckoutSessionWithOrder` requires (so
 * that schema matches no object), and its `Error` lacks the `supported_versions` the RFC asks
 * version errors to carry.
 */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { compiledSchema, firstProblem, jsonPath, registerSchemas, type Wording } from '../contract/schemas.js';
import { ACP_VERSION } from './acp-version.js';
import { PROFILE_KEYWORDS, profileRequestSchema } from './request-schema.js';

const require = createRequire(import.meta.url);
export const acpSchemaPath: string = require.resolve('@commerce-gateway/openapi/acp/schema.agentic_checkout.json');

const official = () => require(acpSchemaPath) as Record<string, unknown>;
registerSchemas('acp', () => ({ document: official() }));
registerSchemas('acp-profile', () => ({ document: profileRequestSchema(official()), keywords: PROFILE_KEYWORDS }));

/** The validator of one of the official schema's `$defs` (CheckoutSession, Error, DiscoveryResponse, …). */
export function acpValidator(name: string): ValidateFunction {
  return compiledSchema('acp', `/$defs/${name}`);
}

/** The validator of a request body (`CheckoutSessionCreateRequest`, …) as this profile takes it. */
export function acpRequestValidator(name: string): ValidateFunction {
  return compiledSchema('acp-profile', `/$defs/${name}`);
}

/** How ACP words a refusal: JSONPaths, and the version whose schema does not know a field. */
const ACP_WORDING: Wording = {
  path: jsonPath,
  whole: '$',
  unknownField: `is not a field of this request (ACP ${ACP_VERSION})`,
  tooLong: (limit) => `is longer than ${limit} characters`,
};

/** The first problem as `{message, param}`: "… is required", "… is not a known field", … */
export function describeFirst(errors: ErrorObject[] | null | undefined): { message: string; param: string } {
  return firstProblem(errors, ACP_WORDING) ?? { message: 'The request body is invalid', param: '$' };
}
