/**
 * Validators of UCP business and platform profiles built from the official documents — the
 * official copy beside the repository (`../shared/ucp`, or `UCP_OFFICIAL_DIR`) when it exists,
 * else the vendored copy in openapi/ucp — independently of the gateway's own loader
 * (src/ucp/ucp-schemas.ts). Each release in its own Ajv (the releases share `$id`s); the official
 * discovery schema's `$id` (…/schemas/discovery/profile.json) does not resolve its own
 * `../schemas/ucp.json`, so it is added under the id its references need.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { repoRoot } from './official-acp.js';

export type UcpRelease = '2026-01-11' | '2026-04-08';

const candidates = [process.env.UCP_OFFICIAL_DIR, join(repoRoot, '..', 'shared', 'ucp'), join(repoRoot, '..', '..', 'shared', 'ucp')].filter((dir): dir is string => !!dir);

/** The official folder holding `<release>/source/`, or undefined. */
export const officialUcpDir = candidates.find((dir) => existsSync(join(dir, '2026-04-08', 'source')));
export const vendoredUcpDir = join(repoRoot, 'openapi', 'ucp');

/** Where a release's schemas are read from: the official `source/` when present, else the vendored copy. */
export const ucpSourceDir = (release: UcpRelease): string => (officialUcpDir ? join(officialUcpDir, release, 'source') : join(vendoredUcpDir, release));

export function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? jsonFilesUnder(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : [],
  );
}

const ajvs = new Map<UcpRelease, Ajv2020>();

function ajvOf(release: UcpRelease): Ajv2020 {
  const known = ajvs.get(release);
  if (known) return known;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const root = ucpSourceDir(release);
  for (const file of jsonFilesUnder(join(root, 'schemas'))) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')) as object);
  const profile = JSON.parse(readFileSync(join(root, 'discovery', 'profile_schema.json'), 'utf8')) as object;
  ajv.addSchema({ ...profile, $id: 'https://ucp.dev/discovery/profile.json' });
  if (release === '2026-01-11') {
    const service = JSON.parse(readFileSync(join(root, 'services', 'service_schema.json'), 'utf8')) as object;
    ajv.addSchema({ ...service, $id: 'https://ucp.dev/services/service_schema.json' });
  }
  ajvs.set(release, ajv);
  return ajv;
}

/** The official validator of a release's business (or platform) profile. */
export function officialProfileValidator(release: UcpRelease, kind: 'business' | 'platform' = 'business'): ValidateFunction {
  const ref = release === '2026-01-11' ? 'https://ucp.dev/discovery/profile.json' : `https://ucp.dev/discovery/profile.json#/$defs/${kind}_profile`;
  return ajvOf(release).getSchema(ref)!;
}

/** Asserts-friendly: the errors of validating `profile`, or [] when it is valid. */
export function profileProblems(release: UcpRelease, profile: unknown, kind: 'business' | 'platform' = 'business'): string[] {
  const validate = officialProfileValidator(release, kind);
  return validate(profile) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** The vendored files of a release, relative to its folder (for the drift check). */
export const vendoredFiles = (release: UcpRelease): string[] => jsonFilesUnder(join(vendoredUcpDir, release)).map((file) => relative(join(vendoredUcpDir, release), file));

/** The errors of validating `value` against the official schemas `refs` (all of them) of a release, or [] when it is valid. */
export function schemaProblems(release: UcpRelease, refs: readonly string[], value: unknown): string[] {
  const ajv = ajvOf(release);
  const key = `all-of:${refs.join(' ')}`;
  const validate = ajv.getSchema(key) ?? (ajv.addSchema({ allOf: refs.map((ref) => ({ $ref: ref })) }, key), ajv.getSchema(key)!);
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

const SHOPPING = 'https://ucp.dev/schemas/shopping';

/** The official schemas a checkout answer of a release must match: the checkout with each extension served. */
export function checkoutSchemas(release: UcpRelease): string[] {
  const composed = release === '2026-01-11' ? 'checkout' : 'dev.ucp.shopping.checkout';
  return [`${SHOPPING}/checkout.json`, ...['fulfillment', 'discount', 'buyer_consent'].map((extension) => `${SHOPPING}/${extension}.json#/$defs/${composed}`)];
}

/** A 2026-04-08 error envelope (types/error_response.json). */
export const ERROR_RESPONSE = `${SHOPPING}/types/error_response.json`;
