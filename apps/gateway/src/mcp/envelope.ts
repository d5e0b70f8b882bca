/**
 * The shape of a tool's arguments (`meta`, `id`, the payload object), checked before anything is
 * dispatched: a malformed envelope is JSON-RPC -32602 (Invalid params) with the first problem,
 * and no REST call is made. The payload's contents are the REST edge's to validate, against the
 * same official schemas it validates every REST body with.
 *
 *   const check = envelopeChecker(schema, (message) => ({ type: 'invalid_request', code: 'invalid', message }));
 *   check(args); // throws RpcError(-32602, …)
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from './tool.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const ajv = new Ajv2020({ strict: false, allErrors: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

/** A checker of `schema` (an object schema); `data` shapes the error's `data` in the binding's form. */
export function envelopeChecker(schema: Record<string, unknown>, data: (message: string, param: string) => unknown): (args: Record<string, unknown>) => void {
  const validate = ajv.compile(schema);
  return (args) => {
    if (validate(args)) return;
    const error = validate.errors?.[0];
    const where = error?.instancePath ? error.instancePath.slice(1).split('/').join('.') : '';
    const missing = error?.keyword === 'required' ? String((error.params as { missingProperty?: string }).missingProperty) : '';
    const param = [where, missing].filter(Boolean).join('.') || '(arguments)';
    const message = `Invalid arguments: ${missing ? `${param} is required` : `${param} ${error?.message ?? 'is invalid'}`}`;
    throw new RpcError(ErrorCode.InvalidParams, message, data(message, param));
  };
}
