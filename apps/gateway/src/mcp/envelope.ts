/**
 * The shape of a tool's arguments (`meta`, `id`, the payload object), checked before anything is
 * dispatched: a malformed envelope is JSON-RPC -32602 (Invalid params) with the first problem in
 * one sentence that names the tool and the argument (`get_checkout: id must be a string`), and
 * no REST call is made. Beyond the schema, every string of the arguments must be text the gateway
 * can keep (http/storable-text.ts: no NUL, no unpaired surrogate — an id is a path segment), and
 * the ones sent as HTTP headers (`meta`'s fields, 2026-01-11's `idempotency_key`) characters a
 * header can carry. The payload's contents are the REST edge's to validate, against the same
 * official schemas it validates every REST body with.
 *
 *   const check = envelopeChecker('get_checkout', schema, (message, param) => ({ code: 'invalid_params', content: message }));
 *   check(args); // throws RpcError(-32602, …)
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isStorableText, UNSTORABLE_TEXT } from '../http/storable-text.js';
import { RpcError } from './tool.js';

const ajv = new Ajv2020({ strict: false, allErrors: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

/** What Node's HTTP client sends in a header value (anything else makes it throw). */
const HEADER_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Arguments the bindings send as headers. */
const AS_HEADERS = new Set(['meta', 'idempotency_key']);

/** Ajv's wording as the end of a sentence: `must be a string of at least 1 character`. */
function wording(error: ErrorObject | undefined): string {
  if (!error) return 'is invalid';
  const params = error.params as { type?: string; limit?: number; allowedValues?: unknown[] };
  if (error.keyword === 'type') return `must be ${/^[aeiou]/.test(params.type ?? '') ? 'an' : 'a'} ${params.type}`;
  if (error.keyword === 'minLength') return `must be a string of at least ${params.limit} character${params.limit === 1 ? '' : 's'}`;
  if (error.keyword === 'enum') return `must be one of ${(params.allowedValues ?? []).map((value) => JSON.stringify(value)).join(', ')}`;
  return error.message ?? 'is invalid';
}

/** The first string of `value` that is not storable (or, under a header argument, not header text): its path and why. */
function badText(value: unknown, path: string, header: boolean): { param: string; why: string } | undefined {
  if (typeof value === 'string') {
    if (!isStorableText(value)) return { param: path, why: `must be a string of storable text: it ${UNSTORABLE_TEXT}` };
    if (header && !HEADER_TEXT.test(value)) return { param: path, why: 'must be a string of printable characters (it is sent as an HTTP header)' };
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return { param: at, why: `has a name that ${UNSTORABLE_TEXT}` };
    const found = badText(item, at, header || (!path && AS_HEADERS.has(key)));
    if (found) return found;
  }
  return undefined;
}

/** A checker of `tool`'s `schema` (an object schema); `data` shapes the error's `data` in the binding's form. */
export function envelopeChecker(tool: string, schema: Record<string, unknown>, data: (message: string, param: string) => unknown): (args: Record<string, unknown>) => void {
  const validate = ajv.compile(schema);
  const refuse = (param: string, why: string): never => {
    const message = `${tool}: ${param} ${why}`;
    throw new RpcError(ErrorCode.InvalidParams, message, data(message, param));
  };
  return (args) => {
    if (!validate(args)) {
      const error = validate.errors?.[0];
      const where = error?.instancePath ? error.instancePath.slice(1).split('/').join('.') : '';
      const missing = error?.keyword === 'required' ? String((error.params as { missingProperty?: string }).missingProperty) : '';
      const param = [where, missing].filter(Boolean).join('.') || '(arguments)';
      return refuse(param, missing ? 'is required' : wording(error));
    }
    const bad = badText(args, '', false);
    if (bad) refuse(bad.param, bad.why);
  };
}
