/**
 * The limits on what a checkout keeps of a buyer and an address, the same whichever protocol
 * sends them: each string has the maxLength of our own contract's field for the same thing
 * (`Customer.email` 320, `Customer.phone` 50, `Customer.name` and every `Address` line 200), or
 * 200 where our contract has no such field; an email is an email address (`format: email`); a
 * country is an assigned ISO 3166-1 alpha-2 code, in any case. The protocols' official schemas
 * set none of these, so each profile adds them to its request schema from here: ACP
 * (acp/request-schema.ts) and UCP (ucp/request-schemas.ts); our own contract states them itself.
 *
 *   boundStrings(defs.Buyer, { email: 'Customer.email' }, loadContract());
 *   ajv.addKeyword(COUNTRY_CODE); schema.properties.country[COUNTRY_CODE.keyword] = true;
 *
 * Our own API's contract types `Address.country` as two letters; its request validator
 * (http/middleware/validate.ts) adds the same rule as the format COUNTRY_FORMAT.
 */
import type { KeywordDefinition } from 'ajv';
import { isCountryCode } from '../kernel/iso-countries.js';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The limit of a string kept with a session where our contract has no field for it. */
export const DEFAULT_MAX_LENGTH = 200;

/** The maxLength of a field of our own contract (`Customer.name`), which the protocol profiles reuse. */
export function ourMaxLength(ours: Schema, ref: string): number {
  const [schema, field] = ref.split('.') as [string, string];
  const limit = ours.components.schemas[schema]?.properties?.[field]?.maxLength;
  if (typeof limit !== 'number') throw new Error(`our contract's ${ref} has no maxLength for the protocol profiles to reuse`);
  return limit;
}

/**
 * Every string property of `def` (and of its string arrays) gets a maxLength: that of our field
 * `fields[name]` names, else DEFAULT_MAX_LENGTH; a property mapped to `Customer.email` is also an
 * email address. A limit the official schema sets itself is kept.
 */
export function boundStrings(def: Schema, fields: Readonly<Record<string, string>>, ours: Schema): void {
  for (const [field, property] of Object.entries<Schema>(def.properties ?? {})) {
    const ref = fields[field];
    const limit = ref ? ourMaxLength(ours, ref) : DEFAULT_MAX_LENGTH;
    if (property.type === 'string' && property.maxLength === undefined) property.maxLength = limit;
    if (property.type === 'string' && ref === 'Customer.email' && property.format === undefined) property.format = 'email';
    if (property.type === 'array' && property.items?.type === 'string' && property.items.maxLength === undefined) property.items.maxLength = limit;
  }
}

/** An assigned ISO 3166-1 alpha-2 code (`ZZ`, `XK`, `USA` and `United States` are not). */
export const COUNTRY_CODE: KeywordDefinition & { keyword: string } = {
  keyword: 'iso3166Alpha2',
  type: 'string',
  schemaType: 'boolean',
  errors: true,
  validate: function check(_on: boolean, data: string) {
    if (isCountryCode(data)) return true;
    (check as { errors?: unknown[] }).errors = [{ keyword: 'iso3166Alpha2', message: `must be an ISO 3166-1 alpha-2 country code, such as US or GB; ${JSON.stringify(data.slice(0, 8))} is not one`, params: {} }];
    return false;
  },
};

/** The same rule as a format, for a validator that takes formats rather than keywords (express-openapi-validator). */
export const COUNTRY_FORMAT = {
  name: 'iso3166-alpha2',
  type: 'string' as const,
  validate: (data: string): boolean => isCountryCode(data),
  /** What a refusal says (validator's "must match format" reworded by contract/schemas.ts). */
  says: 'must be an ISO 3166-1 alpha-2 country code, such as US or GB',
};
