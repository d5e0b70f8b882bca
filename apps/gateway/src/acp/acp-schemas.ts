/**
 * The official ACP 2026-04-17 JSON Schema (vendored unmodified in openapi/acp/), compiled once:
 * responses are validated against it before they are sent; requests against the profile's copy of
 * it (request-schema.ts: `quantity`, `items`, lengths, countries) before anything runs.
 * The JSON Schema, not the OpenAPI document, because it is the consistent one of the two: the
 * OpenAPI `CheckoutSessionBase` forbids the `order` that `CheckoutSessionWithOrder` requires (so
 * that schema matches no object), and its `Error` lacks the `supported_versions` the RFC asks
 * version errors to carry.
 */
import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ACP_VERSION } from './acp-version.js';
import { PROFILE_KEYWORDS, profileRequestSchema } from './request-schema.js';

const require = createRequire(import.meta.url);
export const acpSchemaPath: string = require.resolve('@commerce-gateway/openapi/acp/schema.agentic_checkout.json');

let ajv: Ajv2020 | undefined;

function instance(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    for (const keyword of PROFILE_KEYWORDS) ajv.addKeyword(keyword);
    const official = require(acpSchemaPath) as Record<string, unknown>;
    ajv.addSchema(official, 'acp');
    ajv.addSchema(profileRequestSchema(official), 'acp-profile');
  }
  return ajv;
}

/** The validator of one of the official schema's `$defs` (CheckoutSession, Error, DiscoveryResponse, …). */
export function acpValidator(name: string): ValidateFunction {
  const validate = instance().getSchema(`acp#/$defs/${name}`);
  if (!validate) throw new Error(`the ACP schema has no $defs/${name}`);
  return validate;
}

/** The validator of a request body (`CheckoutSessionCreateRequest`, …) as this profile takes it. */
export function acpRequestValidator(name: string): ValidateFunction {
  const validate = instance().getSchema(`acp-profile#/$defs/${name}`);
  if (!validate) throw new Error(`the ACP profile's request schema has no $defs/${name}`);
  return validate;
}

/** An ajv instance path (`/line_items/0/id`) as an RFC 9535 JSONPath (`$.line_items[0].id`). */
export function jsonPath(instancePath: string, property?: string): string {
  const parts = instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (property !== undefined) parts.push(property);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? `${path}.${part}` : `${path}[${JSON.stringify(part)}]`), '$');
}

/** The first problem as `{message, param}`: "… is required", "… is not a known field", … */
export function describeFirst(errors: ErrorObject[] | null | undefined): { message: string; param: string } {
  const error = errors?.[0];
  if (!error) return { message: 'The request body is invalid', param: '$' };
  if (error.keyword === 'required') {
    const param = jsonPath(error.instancePath, (error.params as { missingProperty: string }).missingProperty);
    return { message: `${param} is required`, param };
  }
  if (error.keyword === 'additionalProperties') {
    const param = jsonPath(error.instancePath, (error.params as { additionalProperty: string }).additionalProperty);
    return { message: `${param} is not a field of this request (ACP ${ACP_VERSION})`, param };
  }
  const param = jsonPath(error.instancePath);
  if (error.keyword === 'maxLength') return { message: `${param} is longer than ${(error.params as { limit: number }).limit} characters`, param };
  return { message: `${param} ${error.message ?? 'is invalid'}`, param };
}
