/** Validates values against our contract's component schemas (compiled by contract/schemas.ts). */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { loadContract } from './document.js';
import { compiledSchema, DOTTED, firstProblem, registerSchemas } from './schemas.js';

registerSchemas('contract', () => ({ document: loadContract() }));

export function schemaValidator(name: string): ValidateFunction {
  return compiledSchema('contract', `/components/schemas/${name}`);
}

/** One line naming the first problem, e.g. "variants[0].price must be >= 0". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return firstProblem(errors, DOTTED)?.message ?? 'invalid';
}
