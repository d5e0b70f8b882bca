/** Validates values against the contract's component schemas (JSON Schema 2020-12). */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadContract } from './document.js';

let ajv: Ajv2020 | undefined;

function instance(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema(loadContract() as object, 'contract');
  }
  return ajv;
}

export function schemaValidator(name: string): ValidateFunction {
  const validate = instance().getSchema(`contract#/components/schemas/${name}`);
  if (!validate) throw new Error(`the contract has no schema ${name}`);
  return validate;
}

/** One line naming the first problem, e.g. "variants[0].price must be >= 0". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const error = errors?.[0];
  if (!error) return 'invalid';
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  if (error.keyword === 'required') {
    const field = (error.params as { missingProperty: string }).missingProperty;
    return `${path ? `${path}.` : ''}${field} is required`;
  }
  if (error.keyword === 'additionalProperties') {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    return `${path ? `${path}.` : ''}${field} is not a known field`;
  }
  return `${path || 'the value'} ${error.message ?? 'is invalid'}`;
}
