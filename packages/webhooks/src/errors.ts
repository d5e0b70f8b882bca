export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'signature_mismatch'
  | 'invalid_body'
  | 'invalid_secret';

/** Every refusal of `verify()`/`verifyAsync()` (and misuse of `sign()`); `reason` is stable, the message says how to fix it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
    // Keeps `instanceof` working even where a transpiler down-levels `extends Error`.
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
