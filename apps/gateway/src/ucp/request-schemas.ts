/**
 * UCP's request schemas: the official schemas describe a resource as it is answered and annotate
 * each field with `ucp_request` — `"omit"`, `"optional"` or `"required"`, for every operation or per
 * operation (`{"create": "required", "update": "optional", "complete": "omit"}`). A request of an
 * operation is validated against the schemas resolved for it, as UCP's own tooling does: an omitted
 * field is dropped (a client that echoes it — an item's `title` or `price`, `totals` — is not
 * refused, and we never read it: prices are ours), a required one added to `required`, an optional
 * one taken out of it.
 *
 * Where the official documents contradict each other, what agents send is accepted (each such
 * deviation is listed here and tested):
 * - 2026-01-11 lists `currency` and `payment` among a checkout's required fields without a
 *   `ucp_request` annotation, while its own REST examples create and update with neither: they are
 *   optional in requests (the currency is the catalog's, the payment comes at completion) —
 *   releases/: `checkout.optionalInRequests`.
 * - 2026-01-11 marks the body's `id` required on update, 2026-04-08 deprecates it (the path names
 *   the session): optional at both; when sent it must be the path's id.
 * - A `fulfillment.methods[]` entry's `id` and `line_item_ids` are required on update, while
 *   clients resend the method they created (which had neither) to choose a destination or option:
 *   optional at both releases on update. The business offers one shipping method for the lines that
 *   ship, so an entry without `id` is that method (checkout-request.ts).
 *
 * Where we are stricter than the official schemas, as ACP's profile is (contract/kept-field-limits.ts:
 * the same limits for every protocol), in buyer.json and postal_address.json — wherever a request
 * uses them: the buyer, fulfillment destinations, a billing address:
 * - every string has our own contract's maxLength for the same field (`email` 320, `phone_number`
 *   50, names and address lines 200), else 200; `buyer.email` must be an email address;
 * - `address_country` must be an assigned ISO 3166-1 alpha-2 code (any case): UCP also allows an
 *   alpha-3 code or a country's name "for backward compatibility", which no shipping zone or tax
 *   rate here could match, so such an address is refused rather than kept unshippable.
 */
import type { ValidateFunction } from 'ajv';
import { loadContract } from '../contract/document.js';
import { boundStrings, COUNTRY_CODE } from '../contract/kept-field-limits.js';
import { releaseOf } from './releases/releases.js';
import { ucpAjv, vendoredSchemas } from './ucp-schemas.js';
import type { UcpVersion } from './ucp-version.js';

export type UcpRequestOperation = 'create' | 'update' | 'complete';

type Mode = 'omit' | 'optional' | 'required';
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function modeOf(annotation: unknown, operation: UcpRequestOperation): Mode | undefined {
  if (typeof annotation === 'string') return annotation as Mode;
  if (isObject(annotation)) return annotation[operation] as Mode | undefined;
  return undefined;
}

/** A copy of `node` with every `properties` map resolved for the operation. */
function resolve(node: unknown, operation: UcpRequestOperation): unknown {
  if (Array.isArray(node)) return node.map((item) => resolve(item, operation));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'properties' ? value : resolve(value, operation);
  if (!isObject(node.properties)) return out;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const properties: Json = {};
  for (const [name, property] of Object.entries(node.properties)) {
    const mode = modeOf(isObject(property) ? property.ucp_request : undefined, operation);
    if (mode === 'omit') {
      required.delete(name);
      continue;
    }
    if (mode === 'required') required.add(name);
    if (mode === 'optional') required.delete(name);
    properties[name] = resolve(property, operation);
  }
  out.properties = properties;
  if (Array.isArray(node.required) || required.size) out.required = [...required];
  return out;
}

const CHECKOUT_ID = 'https://ucp.dev/schemas/shopping/checkout.json';
const METHOD_ID = 'https://ucp.dev/schemas/shopping/types/fulfillment_method.json';

/** The documented deviations (see above), applied to the resolved checkout and fulfillment method schemas. */
function relax(schema: Json, version: UcpVersion, operation: UcpRequestOperation): Json {
  if (!Array.isArray(schema.required)) return schema;
  const loose =
    schema.$id === CHECKOUT_ID ? new Set(['id', ...releaseOf(version).checkout.optionalInRequests])
    : schema.$id === METHOD_ID && operation === 'update' ? new Set(['id', 'line_item_ids'])
    : undefined;
  if (!loose) return schema;
  return { ...schema, required: (schema.required as string[]).filter((name) => !loose.has(name)) };
}

const TYPES = 'https://ucp.dev/schemas/shopping/types';
/** Where each UCP string's limit comes from in our own contract (`Schema.field`), per schema `$id`. */
const OUR_FIELD: Record<string, Record<string, string>> = {
  [`${TYPES}/buyer.json`]: { email: 'Customer.email', phone_number: 'Customer.phone', first_name: 'Customer.name', last_name: 'Customer.name', full_name: 'Customer.name' },
  [`${TYPES}/postal_address.json`]: {
    street_address: 'Address.line1',
    extended_address: 'Address.line2',
    address_locality: 'Address.city',
    address_region: 'Address.state',
    postal_code: 'Address.postal_code',
    first_name: 'Address.name',
    last_name: 'Address.name',
    full_name: 'Address.name',
    phone_number: 'Customer.phone',
  },
};

/** The kept fields' limits (see above) added to a copy of the buyer and postal address schemas. */
function bounded(schema: Json, ours: Json): Json {
  const fields = OUR_FIELD[schema.$id as string];
  if (!fields) return schema;
  const copy = structuredClone(schema);
  boundStrings(copy, fields, ours);
  const country = (copy.properties as Record<string, Json> | undefined)?.address_country;
  if (country) country[COUNTRY_CODE.keyword] = true;
  return copy;
}

const validators = new Map<string, ValidateFunction>();

/**
 * The validator of an operation's request body: every schema `refs` names (`$id` and fragment, e.g.
 * the checkout and the `dev.ucp.shopping.checkout` composition of each extension served), resolved
 * for the operation, all of which the body must match.
 */
export function ucpRequestValidator(version: UcpVersion, operation: UcpRequestOperation, refs: readonly string[]): ValidateFunction {
  const key = `${version} ${operation} ${refs.join(' ')}`;
  let validate = validators.get(key);
  if (!validate) {
    const ours = loadContract() as unknown as Json;
    const schemas = vendoredSchemas(version).map((schema) => bounded(relax(resolve(schema, operation) as Json, version, operation), ours));
    const ajv = ucpAjv(schemas);
    ajv.addKeyword(COUNTRY_CODE);
    validate = ajv.compile({ allOf: refs.map((ref) => ({ $ref: ref })) });
    validators.set(key, validate);
  }
  return validate;
}

/** The first problem of a failed validation as a JSONPath and a sentence. */
export function firstProblem(validate: ValidateFunction): { path: string; message: string } {
  const error = validate.errors?.[0];
  const pointer = error?.instancePath ?? '';
  const path = `$${pointer.split('/').slice(1).map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`)).join('')}`;
  const missing = error?.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
  if (missing) return { path: `${path}.${missing}`, message: `${path}.${missing} is required` };
  return { path, message: `${path} ${error?.message ?? 'is invalid'}` };
}
