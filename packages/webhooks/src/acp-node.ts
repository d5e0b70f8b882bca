/**
 * ACP's `Merchant-Signature: t=<unix seconds>,v1=<hex>` with node:crypto: v1 is the lowercase hex
 * HMAC-SHA256 of `<t>.<raw body>` — unlike `X-Webhook-Signature`, the timestamp is signed, so the
 * tolerance window alone stops replays of old deliveries.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AcpWebhookEvent } from './acp-types.js';
import { formatSignatureHeader } from './header.js';
import { fail } from './messages.js';
import { assertFresh, secretList, signingTime } from './options.js';
import { assertPayload, parseEvent, rawBytes } from './payload.js';
import type { SignatureHeaderValue, SignOptions, TestHeaderOptions, VerifyOptions, WebhookPayload, WebhookSecret } from './types.js';
import { verifyInput } from './verify-input.js';

/** HMAC-SHA256 of `<timestamp>.` followed by the raw body bytes. */
function digest(payload: WebhookPayload, timestamp: number, secret: string): Buffer {
  const hmac = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8');
  return (typeof payload === 'string' ? hmac.update(payload, 'utf8') : hmac.update(rawBytes(payload))).digest();
}

/** Signs `<t>.<raw body>` with each secret: the `Merchant-Signature` value `t=<now>,v1=<hex>[,v1=…]`. */
export function signAcp(payload: WebhookPayload, secret: WebhookSecret, options?: SignOptions): string {
  assertPayload(payload);
  const secrets = secretList(secret);
  const timestamp = signingTime(options);
  return formatSignatureHeader(timestamp, secrets.map((s) => digest(payload, timestamp, s).toString('hex')));
}

/** Verifies a `Merchant-Signature`, then its timestamp; returns the parsed `{ type, data }` or throws WebhookVerificationError. */
export function verifyAcp<T = AcpWebhookEvent>(
  payload: WebhookPayload, header: SignatureHeaderValue, secret: WebhookSecret, options?: VerifyOptions,
): T {
  const input = verifyInput(payload, header, secret, options, 'Merchant-Signature');
  const expected = input.signatures.map((hex) => Buffer.from(hex, 'hex'));
  let matched = false;
  for (const s of input.secrets) {
    const actual = digest(input.payload, input.timestamp, s);
    for (const candidate of expected) matched = timingSafeEqual(actual, candidate) || matched;
  }
  if (!matched) throw fail.acpMismatch();
  assertFresh(input.timestamp, options);
  return parseEvent(input.payload) as T;
}

/** A valid `Merchant-Signature` for `payload`, for receivers' tests. */
export function generateAcpTestHeader({ payload, secret, ...options }: TestHeaderOptions): string {
  return signAcp(payload, secret, options);
}
