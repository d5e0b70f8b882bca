/**
 * What every answer must be, whatever was asked: never a 5xx, a status the
 * operation declares, an error body in one of the contract's two error shapes
 * (Error; AuthError for 401, 403 and 429), and a 2xx body valid against the
 * operation's response schema. Validated by Ajv against the contract itself.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deref, type Schema } from './schema-arbitrary.js';

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

export class ContractCheck {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly root: Schema) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(root, 'contract');
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.cache.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `contract#${pointer}` });
      this.cache.set(pointer, validate);
    }
    return validate;
  }

  private invalid(pointer: string, body: unknown): string | undefined {
    const validate = this.validator(pointer);
    if (validate(body)) return undefined;
    const error = validate.errors?.[0];
    return `${error?.instancePath || '(body)'} ${error?.message ?? 'invalid'}`;
  }

  /** The problems with one answer (empty when it is fine). */
  /** `routed: false` when the client's URL normalisation sent the request to another route: only the error shape is checked then. */
  problems(template: string, method: string, status: number, body: unknown, { routed = true } = {}): string[] {
    const problems: string[] = [];
    if (status >= 500) problems.push(`${status} answer`);
    const responses = (this.root.paths[template][method.toLowerCase()] as Schema).responses as Record<string, Schema>;
    const declared = responses[String(status)] ?? responses.default;
    if (!declared && routed) problems.push(`status ${status} is not declared for ${method} ${template}`);
    if (status >= 400) {
      const shape = status === 401 || status === 403 || status === 429 ? 'AuthError' : 'Error';
      const wrong = this.invalid(`/components/schemas/${shape}`, body);
      if (wrong) problems.push(`error body is not a contract ${shape}: ${wrong}: ${JSON.stringify(body)?.slice(0, 200)}`);
    } else if (status >= 200 && status < 300 && declared && routed) {
      const pointer = declared.$ref
        ? `${String(declared.$ref).slice(1)}/content/application~1json/schema`
        : `/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      if (deref(this.root, declared).content?.['application/json']?.schema) {
        const wrong = this.invalid(pointer, body);
        if (wrong) problems.push(`${status} body breaks the contract: ${wrong}`);
      }
    }
    return problems;
  }
}
