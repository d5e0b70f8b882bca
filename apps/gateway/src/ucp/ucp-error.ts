/**
 * A UCP refusal, answered as the release the request is processed at words it:
 * - 2026-04-08 (overview.md "Error Handling", REST transport bindings): a transport error,
 *   `{code, content, continue_url?}`, with the status of its code — 400 `invalid_profile_url`,
 *   424 `profile_unreachable`, 422 `profile_malformed`, 422 `version_unsupported`.
 * - 2026-01-11 (overview.md "Error Handling", checkout-rest.md "Error Responses"):
 *   `{status: "requires_escalation", messages: [{type: "error", code, content, severity}]}`; its
 *   status table has no 422/424, so every negotiation failure is 400 ("cannot be served").
 *   Its codes are freeform: the 2026-04-08 names are used for the same failures.
 */
import type { UcpVersion } from './ucp-version.js';

export type NegotiationCode = 'invalid_profile_url' | 'profile_unreachable' | 'profile_malformed' | 'version_unsupported';

const STATUS_2026_04_08: Record<NegotiationCode, number> = {
  invalid_profile_url: 400,
  profile_unreachable: 424,
  profile_malformed: 422,
  version_unsupported: 422,
};

export class UcpError extends Error {
  override name = 'UcpError';
  constructor(
    readonly code: NegotiationCode | string,
    /** Human-readable, as UCP's `content`. */
    readonly content: string,
    /** The status under 2026-04-08 (its table for negotiation codes); 2026-01-11 answers 400 for those. */
    readonly status2026_04_08: number = STATUS_2026_04_08[code as NegotiationCode] ?? 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(content);
  }

  /** Status and body as `version` answers this error. */
  answer(version: UcpVersion): { status: number; body: Record<string, unknown> } {
    if (version === '2026-01-11') {
      const status = this.code in STATUS_2026_04_08 ? 400 : this.status2026_04_08;
      return { status, body: { status: 'requires_escalation', messages: [{ type: 'error', code: this.code, content: this.content, severity: 'requires_buyer_input' }] } };
    }
    return { status: this.status2026_04_08, body: { code: this.code, content: this.content } };
  }
}
