/**
 * ACP's flat Error (`{type, code, message, param?}`, rfc.agentic_checkout.md §3.1): what the
 * profile answers whenever it cannot return a session. `param` is an RFC 9535 JSONPath.
 * domain-errors.ts makes one from any of our errors.
 */
import { KnownError } from '../kernel/errors.js';

export type AcpErrorType = 'invalid_request' | 'processing_error' | 'service_unavailable';

export class AcpError extends KnownError {
  constructor(
    readonly status: number,
    readonly type: AcpErrorType,
    readonly code: string,
    message: string,
    override readonly param?: string,
    readonly extra: { supported_versions?: string[] } = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** Worded for the agent already: it is the answer. */
  get expose(): boolean {
    return true;
  }

  body(): Record<string, unknown> {
    return { type: this.type, code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}), ...this.extra };
  }
}
