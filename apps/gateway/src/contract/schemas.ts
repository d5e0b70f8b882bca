/**
 * Every contract's JSON Schemas, compiled by one Ajv set-up (JSON Schema 2020-12, formats
 * checked, the first problem only), each document registered once under its own key by the
 * module that owns it — our contract ('contract'), the official ACP schema and the ACP profile's
 * request schema (acp/acp-schemas.ts) — and compiled at its first use. And the one wording of a
 * refusal: `firstProblem` names the first problem's field in the protocol's path notation
 * (`validatorProblem` the same for what express-openapi-validator refused).
 *
 *   registerSchemas('acp', () => ({ document: official }));
 *   const validate = compiledSchema('acp', '/$defs/CheckoutSession');
 *   if (!validate(body)) throw refusal(firstProblem(validate.errors, JSON_PATH));
 */
import { Ajv2020, type ErrorObject, type KeywordDefinition, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { COUNTRY_FORMAT } from './kept-field-limits.js';

interface SchemaSource {
  document: object;
  /** Keywords of the document's own (names unique across documents). */
  keywords?: KeywordDefinition[];
}

const sources = new Map<string, () => SchemaSource>();
const registered = new Set<string>();
let ajv: Ajv2020 | undefined;

/** Names a document; it is read and added to the one Ajv at the first compiledSchema() of it. */
export function registerSchemas(key: string, source: () => SchemaSource): void {
  if (!sources.has(key)) sources.set(key, source);
}

/** The validator of a schema at `pointer` (a JSON Pointer, `/components/schemas/Product`) of a registered document. */
export function compiledSchema(key: string, pointer: string): ValidateFunction {
  ajv ??= withFormats(new Ajv2020({ strict: false, allErrors: false, validateFormats: true }));
  if (!registered.has(key)) {
    const load = sources.get(key);
    if (!load) throw new Error(`no schema document registered as ${key}`);
    const { document, keywords = [] } = load();
    for (const keyword of keywords) if (!ajv.getKeyword(keyword.keyword as string)) ajv.addKeyword(keyword);
    ajv.addSchema(document, key);
    registered.add(key);
  }
  const validate = ajv.getSchema(`${key}#${pointer}`);
  if (!validate) throw new Error(`${key} has no schema at ${pointer}`);
  return validate;
}

/**
 * The same set-up for request parameters, reading them as express-openapi-validator's request
 * Ajv does (framework/ajv/options.js): strings coerced to the schema's type, defaults filled.
 */
export function parameterAjv(): Ajv2020 {
  return new Ajv2020({ strict: false, strictNumbers: true, strictTuples: true, coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false });
}

function withFormats(instance: Ajv2020): Ajv2020 {
  (addFormats as unknown as (a: Ajv2020) => void)(instance);
  return instance;
}

/** How a protocol words a schema refusal. */
export interface Wording {
  /** A field's place, from the path's parts (`['items', '0', 'quantity']`). */
  path(parts: string[]): string;
  /** What the whole value is called when the problem is the value itself. */
  whole: string;
  /** After a field the schema does not know. */
  unknownField: string;
  /** The message of a string longer than its `maxLength` (Ajv's own when absent). */
  tooLong?: (limit: number) => string;
}

/** Our API's notation: `items[0].quantity`. */
export const DOTTED: Wording = {
  path: (parts) => parts.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('').replace(/^\./, ''),
  whole: 'the value',
  unknownField: 'is not a known field',
};

/** An RFC 9535 JSONPath: `$.line_items[0].id`. */
export function jsonPath(parts: readonly string[]): string {
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? `${path}.${part}` : `${path}[${JSON.stringify(part)}]`), '$');
}

/** The parts of an Ajv instance path (`/line_items/0/id`), JSON Pointer escapes undone. */
function pathParts(instancePath: string): string[] {
  return instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The first problem as `{message, param}`: "… is required", "… is not a known field", "… must be >= 0"; undefined without one. */
export function firstProblem(errors: ErrorObject[] | null | undefined, wording: Wording): { message: string; param: string } | undefined {
  const error = errors?.[0];
  if (!error) return undefined;
  const parts = pathParts(error.instancePath);
  if (error.keyword === 'required' || error.keyword === 'additionalProperties') {
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    const param = wording.path([...parts, (params.missingProperty ?? params.additionalProperty)!]);
    return { message: `${param} ${error.keyword === 'required' ? 'is required' : wording.unknownField}`, param };
  }
  const param = wording.path(parts);
  const text = error.keyword === 'maxLength' && wording.tooLong ? wording.tooLong((error.params as { limit: number }).limit) : (error.message ?? 'is invalid');
  return { message: `${param || wording.whole} ${text}`, param };
}

/** express-openapi-validator's path of a problem: `/query/page_size` → `page_size`, `/body/items/0/quantity` → `items[0].quantity`. */
function validatorParam(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const parts = path.replace(/^\./, '/').split(/[/.]/).filter(Boolean);
  if (['query', 'body', 'params', 'path', 'headers'].includes(parts[0] ?? '')) parts.shift();
  return parts.reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), '') || undefined;
}

/**
 * The same wording for what express-openapi-validator refused (our API's parameters and bodies):
 * the first problem as `{message, param}`, the field named first ("items[0].quantity must be >= 1").
 */
export function validatorProblem(errors: readonly { path?: string; message?: string }[] | undefined): { message: string; param: string | undefined } | undefined {
  const first = errors?.[0];
  if (!first?.message) return undefined;
  const param = validatorParam(first.path);
  const said = first.message.replace(`must match format "${COUNTRY_FORMAT.name}"`, COUNTRY_FORMAT.says);
  return { message: param && !said.includes(param) ? `${param} ${said}` : said, param };
}
