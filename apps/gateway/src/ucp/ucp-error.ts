/**
 * A UCP refusal, answered as the release the request is processed at words it (releases/: `answer`):
 * - 2026-04-08 (overview.md "Error Handling", REST transport bindings): a transport error,
 *   `{code, content, continue_url?}`, with the status of its code — 400 `invalid_profile_url`,
 *   424 `profile_unreachable`, 422 `profile_malformed`, 422 `version_unsupported`.
 * - 2026-01-11 (overview.md "Error Handling", checkout-rest.md "Error Responses"):
 *   `{status: "requires_escalation", messages: [{type: "error", code, content, severity}]}`; its
 *   status table has no 422/424, so every negotiation failure is 400 ("cannot be served"),
 *   `capabilities_incompatible` included (one status per release). Its codes are freeform: the
 *   2026-04-08 names are used for the same failures.
 *
 * A refusal about a resource (`resource`: a checkout, cart or order that does not exist, a cart
 * none of whose items can be sold, a checkout that can no longer change) is a business outcome
 * rather than a transport error: 2026-04-08 answers it 200 with its error envelope
 * (types/error_response.json: `ucp.status: "error"` and `messages`, severity `unrecoverable`), as
 * cart-rest.md and order-rest.md show for `not_found` ("Business outcomes (including not found and
 * validation errors) are returned with HTTP 200"); 2026-01-11, which has no envelope, as above with
 * the status of its kind (404, 409) — and a request the business cannot serve (an unknown item,
 * more than the stock asked at once: 2026-04-08's 200 outcomes) 400, its "invalid or cannot be
 * served". 2026-04-08's 200-with-envelope convention never leaks into 2026-01-11.
 */
import { KnownError } from '../kernel/errors.js';
import { releaseOf } from './releases/releases.js';
import type { UcpVersion } from './ucp-version.js';

export type NegotiationCode = 'invalid_profile_url' | 'profile_unreachable' | 'profile_malformed' | 'version_unsupported' | 'capabilities_incompatible';

/** The negotiation codes' statuses (2026-04-08's table, which UcpError carries; a release without it answers its own). */
const NEGOTIATION_STATUS: Record<NegotiationCode, number> = {
  invalid_profile_url: 400,
  profile_unreachable: 424,
  profile_malformed: 422,
  version_unsupported: 422,
  capabilities_incompatible: 200,
};

export interface UcpErrorDetail {
  /** Answered in the error envelope of a business outcome (2026-04-08), not as a transport error. */
  resource?: boolean;
  /** RFC 9535 JSONPath of the request field the error is about. */
  path?: string;
  /** The release a refused platform profile declares (`ucp.version`): its refusal is worded in it when spoken. */
  declared?: string;
}

export class UcpError extends KnownError {
  override name = 'UcpError';
  constructor(
    readonly code: NegotiationCode | string,
    /** Human-readable, as UCP's `content`. */
    readonly content: string,
    /** The status under 2026-04-08 (its table for negotiation codes); 2026-01-11 answers 400 for those. */
    readonly status2026_04_08: number = NEGOTIATION_STATUS[code as NegotiationCode] ?? 400,
    readonly headers: Record<string, string> = {},
    readonly detail: UcpErrorDetail = {},
  ) {
    super(content);
  }

  /** The status it suggests: 2026-04-08's (answer() gives each release's). */
  get status(): number {
    return this.status2026_04_08;
  }

  /** Worded for the platform already: it is the answer. */
  get expose(): boolean {
    return true;
  }

  /** Status and body as `version` answers this error. */
  answer(version: UcpVersion): { status: number; body: Record<string, unknown> } {
    return releaseOf(version).answer({
      code: this.code,
      content: this.content,
      status: this.status2026_04_08,
      negotiation: this.code in NEGOTIATION_STATUS,
      resource: this.detail.resource === true,
      path: this.detail.path,
    });
  }
}
