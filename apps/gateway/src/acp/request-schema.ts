/**
 * The profile's request schema: the official JSON Schema (vendored unmodified) with what agents
 * send that it lacks, and the limits the checkout domain stores under. Built in memory at start-up;
 * answers are still checked against the official schema unchanged (acp-responses.ts). Written for
 * agents in the served document's note (acp-document.ts) and docs/agents.md's "Rules of the profile".
 *
 * - `Item.quantity`: the RFC (§4.1, §5 "Item: id, quantity (int ≥ 1)"), the OpenAPI document's own
 *   examples and `Item`'s description carry it; the schema's `Item` has none and
 *   `additionalProperties: false`, so an agent following the RFC could buy nothing. Taken as ACP
 *   types it (a number: decimals are for goods sold by measure), then refused unless a whole number
 *   from 1 to 999, our own API's line-item limit (line-resolver.ts): this catalog sells whole units.
 * - `items`: the RFC's and examples' name for `line_items` on create and update (one or the other:
 *   wire/line-entries.ts refuses both at once, and a create without either).
 * - Strings the session keeps (Buyer, FulfillmentDetails, Address, the buyer's company, loyalty and
 *   tax exemption) have the maxLength of our own API's contract for the same field (the domain
 *   stores both, and our API shows ACP sessions), else 200; `Address.country` must be an assigned
 *   ISO 3166-1 alpha-2 code (any case, as in our API). The same limits as UCP's: contract/kept-field-limits.ts.
 */
import type { KeywordDefinition } from 'ajv';
import { MAX_QUANTITY } from '../checkout/line-resolver.js';
import { loadContract } from '../contract/document.js';
import { boundStrings, COUNTRY_CODE, ourMaxLength } from '../contract/kept-field-limits.js';

export { ourMaxLength };

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Where each ACP string's limit comes from in our own contract (`Schema.field`). */
const OUR_FIELD: Record<string, Record<string, string>> = {
  Address: { name: 'Address.name', line_one: 'Address.line1', line_two: 'Address.line2', city: 'Address.city', state: 'Address.state', postal_code: 'Address.postal_code', company: 'Address.name' },
  Buyer: { email: 'Customer.email', phone_number: 'Customer.phone', first_name: 'Customer.name', last_name: 'Customer.name', full_name: 'Customer.name' },
  FulfillmentDetails: { name: 'Customer.name', email: 'Customer.email', phone_number: 'Customer.phone' },
};

/** Other strings kept with the session (contract/kept-field-limits.ts: DEFAULT_MAX_LENGTH where our contract has no such field). */
const BOUNDED = ['Address', 'Buyer', 'FulfillmentDetails', 'CompanyInfo', 'LoyaltyInfo', 'TaxExemption'];

/** A number of whole units, 1 to `max` (the schema lets ACP's decimals through to be refused here, clearly). */
const wholeUnits: KeywordDefinition = {
  keyword: 'acpWholeUnits',
  type: 'number',
  schemaType: 'number',
  errors: true,
  validate: function check(max: number, data: number) {
    if (Number.isInteger(data) && data >= 1 && data <= max) return true;
    const message = Number.isInteger(data)
      ? `must be a whole number from 1 to ${max}`
      : `is ${data}: ACP allows decimal quantities for goods sold by measure, and this catalog sells whole units only; send a whole number from 1 to ${max}`;
    (check as { errors?: unknown[] }).errors = [{ keyword: 'acpWholeUnits', message, params: { max } }];
    return false;
  },
};

export const PROFILE_KEYWORDS: KeywordDefinition[] = [wholeUnits, COUNTRY_CODE];

/** The official JSON Schema as this profile takes requests (a copy: the official one is left as it is). */
export function profileRequestSchema(official: Schema, ours: Schema = loadContract()): Schema {
  const schema = structuredClone(official);
  delete schema.$id; // compiled beside the official one, under its own key
  const defs = schema.$defs as Record<string, Schema>;

  defs.Item!.properties.quantity = {
    type: 'number', // ACP's type (decimals for goods sold by measure), refused with a clear message by acpWholeUnits
    acpWholeUnits: MAX_QUANTITY,
    description: `Units of this item (the RFC's Item.quantity; 1 when absent). This gateway sells whole units: 1 to ${MAX_QUANTITY}.`,
  };
  for (const request of ['CheckoutSessionCreateRequest', 'CheckoutSessionUpdateRequest']) {
    const def = defs[request]!;
    def.properties.items = { ...structuredClone(def.properties.line_items), description: 'The RFC\'s name for line_items (send one of them)' };
    if (def.required) def.required = def.required.filter((field: string) => field !== 'line_items');
  }
  for (const name of BOUNDED) boundStrings(defs[name]!, OUR_FIELD[name] ?? {}, ours);
  defs.Address!.properties.country[COUNTRY_CODE.keyword] = true;
  return schema;
}
