import { WebhookVerificationError } from './errors.js';

const FORMAT = 't=<unix seconds>,v1=<64 lowercase hex>[,v1=…]';
const RAW_BODY =
  "pass the raw request body (string, Buffer or Uint8Array) exactly as received, not the parsed JSON — e.g. express.raw({ type: 'application/json' })";

/** The error of each refusal, worded to say how to fix it. Internal. */
export const fail = {
  missingHeader: () =>
    new WebhookVerificationError(
      'missing_header',
      "No X-Webhook-Signature header: pass the header's value (req.headers['x-webhook-signature'] or request.headers.get('x-webhook-signature')). Without it the request is not from Commerce Gateway.",
    ),
  malformedHeader: (detail: string) =>
    new WebhookVerificationError(
      'malformed_header',
      `Malformed X-Webhook-Signature header (${detail}): expected ${FORMAT}; pass the header's value unchanged.`,
    ),
  tooOld: (seconds: number, tolerance: number) =>
    new WebhookVerificationError(
      'timestamp_too_old',
      `The signature's timestamp is ${seconds} s old, beyond the ${tolerance} s tolerance: a replay, or a receiver clock that is off (check NTP) — raise \`tolerance\` only if deliveries are legitimately slow.`,
    ),
  tooNew: (seconds: number, tolerance: number) =>
    new WebhookVerificationError(
      'timestamp_too_new',
      `The signature's timestamp is ${seconds} s in the future, beyond the ${tolerance} s tolerance: the receiver's clock is probably behind — check NTP, or that \`now\` returns milliseconds.`,
    ),
  mismatch: () =>
    new WebhookVerificationError(
      'signature_mismatch',
      "No v1 signature matches the body: check that the secret is this endpoint's signing secret, and pass the raw body exactly as received (no re-serialised JSON, no changed whitespace or encoding).",
    ),
  notRawBody: (got: string) => new WebhookVerificationError('invalid_body', `Got ${got} as the body: ${RAW_BODY}.`),
  notJson: (cause: unknown) =>
    new WebhookVerificationError(
      'invalid_body',
      `The body is correctly signed but is not UTF-8 JSON: ${RAW_BODY}, without re-encoding it.`,
      { cause },
    ),
  invalidSecret: (got: string) =>
    new WebhookVerificationError(
      'invalid_secret',
      `The webhook secret is ${got}: pass the endpoint's signing secret (printed by \`gateway webhooks add-endpoint\`), e.g. from an environment variable — is it set?`,
    ),
};
