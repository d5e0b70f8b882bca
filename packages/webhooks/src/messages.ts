import { WebhookVerificationError } from './errors.js';

const FORMAT = 't=<unix seconds>,v1=<64 lowercase hex>[,v1=…]';
/** The header each scheme uses: ours, and ACP's order webhooks (`Merchant-Signature`). */
export type SignatureHeaderName = 'X-Webhook-Signature' | 'Merchant-Signature';
const GATEWAY_HEADER: SignatureHeaderName = 'X-Webhook-Signature';
const RAW_BODY =
  "pass the raw request body (string, Buffer or Uint8Array) exactly as received, not the parsed JSON — e.g. express.raw({ type: 'application/json' })";

/** The error of each refusal, worded to say how to fix it. Internal. */
export const fail = {
  missingHeader: (header: SignatureHeaderName = GATEWAY_HEADER) =>
    new WebhookVerificationError(
      'missing_header',
      `No ${header} header: pass the header's value (req.headers['${header.toLowerCase()}'] or request.headers.get('${header.toLowerCase()}')). Without it the request is not from Commerce Gateway.`,
    ),
  malformedHeader: (detail: string, header: SignatureHeaderName = GATEWAY_HEADER) =>
    new WebhookVerificationError(
      'malformed_header',
      `Malformed ${header} header (${detail}): expected ${FORMAT}; pass the header's value unchanged.`,
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
  acpMismatch: () =>
    new WebhookVerificationError(
      'signature_mismatch',
      'No v1 signature matches "<t>.<body>": check that the secret is this endpoint\'s signing secret, pass the raw body exactly as received (no re-serialised JSON, no changed whitespace or encoding) and the header unchanged — the timestamp is signed too.',
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
