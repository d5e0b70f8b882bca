/**
 * The official UCP JSON Schemas of each release (vendored unmodified in openapi/ucp/), one Ajv per
 * release: both releases give their schemas the same `$id`s (https://ucp.dev/schemas/ucp.json …),
 * so they cannot share the one Ajv of contract/schemas.ts. Two `$id`s are corrected in memory
 * only, where the official files' relative `$ref`s do not resolve from them:
 * `discovery/profile_schema.json` (`$id` …/schemas/discovery/profile.json, refs
 * `../schemas/ucp.json`) and, where a release vendors it (2026-01-11: releases/ `schemas.extraFiles`),
 * `services/service_schema.json` (refs from `ucp.json` name it at …/services/service_schema.json,
 * its `$id` says …/schemas/service.json).
 *
 *   const validate = ucpProfileValidator('2026-04-08', 'business');
 *   validate(profile) || validate.errors;
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { releaseOf } from './releases/releases.js';
import type { UcpVersion } from './ucp-version.js';

const require = createRequire(import.meta.url);

/** The folder of one release's vendored documents. */
export function ucpSchemaDir(version: UcpVersion): string {
  return dirname(dirname(require.resolve(`@commerce-gateway/openapi/ucp/${version}/schemas/ucp.json`)));
}

const ID_FIXES: Record<string, string> = {
  'discovery/profile_schema.json': 'https://ucp.dev/discovery/profile.json',
  'services/service_schema.json': 'https://ucp.dev/services/service_schema.json',
};

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? jsonFiles(path) : entry.name.endsWith('.json') ? [path] : [];
  });
}

/** A vendored file of the release (`path` under its folder), with the `$id` it is referred to by (ID_FIXES applied). */
export function vendoredFile(version: UcpVersion, path: string): Record<string, unknown> {
  const schema = JSON.parse(readFileSync(join(ucpSchemaDir(version), path), 'utf8')) as Record<string, unknown>;
  const fixed = ID_FIXES[path.split('\\').join('/')];
  return fixed ? { ...schema, $id: fixed } : schema;
}

/** The release's vendored schemas: schemas/, discovery/ and the files its schemas refer to besides. */
export function vendoredSchemas(version: UcpVersion): Record<string, unknown>[] {
  const root = ucpSchemaDir(version);
  const files = ['schemas', 'discovery'].flatMap((folder) => jsonFiles(join(root, folder)).map((file) => relative(root, file)));
  return [...files, ...releaseOf(version).schemas.extraFiles].map((path) => vendoredFile(version, path));
}

/** A new Ajv holding `schemas` (strict off: the schemas carry UCP's own annotations — `ucp_request`, … — beside JSON Schema's keywords). */
export function ucpAjv(schemas: readonly Record<string, unknown>[]): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

const instances = new Map<UcpVersion, Ajv2020>();

function ajvOf(version: UcpVersion): Ajv2020 {
  let ajv = instances.get(version);
  if (!ajv) instances.set(version, (ajv = ucpAjv(vendoredSchemas(version))));
  return ajv;
}

/** The validator of an official schema of `version` by its `$id` (and fragment), e.g. `https://ucp.dev/schemas/shopping/checkout.json`. */
export function ucpSchemaValidator(version: UcpVersion, ref: string): ValidateFunction {
  const validate = ajvOf(version).getSchema(ref);
  if (!validate) throw new Error(`UCP ${version} has no schema ${ref}`);
  return validate;
}

/**
 * The validator of a discovery profile of `version`: a business's (what /.well-known/ucp serves) or a
 * platform's (what UCP-Agent points at): the fragment the release names (2026-01-11 has one schema for both).
 */
export function ucpProfileValidator(version: UcpVersion, kind: 'business' | 'platform'): ValidateFunction {
  const ajv = ajvOf(version);
  const ref = `${ID_FIXES['discovery/profile_schema.json']!}${releaseOf(version).schemas.profileFragment(kind)}`;
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`UCP ${version} has no ${kind} profile schema`);
  return validate;
}

/** The first problem of a failed validation, for a log line or an error's `content`. */
export function describeProblem(validate: ValidateFunction): string {
  const error = validate.errors?.[0];
  if (!error) return 'does not match the schema';
  return `${error.instancePath || '(the profile)'} ${error.message ?? 'is invalid'}`;
}

/** The validator of the official order (`schemas/shopping/order.json`) of `version`: what GET /ucp/orders/{id} and order webhooks carry. */
export function ucpOrderValidator(version: UcpVersion): ValidateFunction {
  const validate = ajvOf(version).getSchema('https://ucp.dev/schemas/shopping/order.json');
  if (!validate) throw new Error(`UCP ${version} has no order schema`);
  return validate;
}

/** The `$id` of a schema of the shopping service (`catalog_search.json#/$defs/search_request`, `types/line_item.json`). */
export const shoppingSchema = (path: string): string => `https://ucp.dev/schemas/shopping/${path}`;

/**
 * Compiles a schema of our own in `version`'s Ajv, so that it may `$ref` the official schemas by
 * `$id` (e.g. a request shape the official documents only describe through `ucp_request` annotations).
 */
export function ucpCompile(version: UcpVersion, schema: Record<string, unknown>): ValidateFunction {
  return ajvOf(version).compile(schema);
}
