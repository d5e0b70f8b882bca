import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatSignatureHeader } from './header.js';
import { fail } from './messages.js';
import { assertFresh, secretList, signingTime } from './options.js';
import { assertPayload, parseEvent, rawBytes } from './payload.js';
import type {
  SignatureHeaderValue, SignOptions, TestHeaderOptions, VerifyOptions, WebhookEvent, WebhookPayload, WebhookSecret,
} from './types.js';
import { verifyInput } from './verify-input.js';

/** HMAC-SHA256 of the raw body bytes alone, keyed with the secret's UTF-8 bytes. */
function digest(payload: WebhookPayload, secret: string): Buffer {
  const hmac = createHmac('sha256', secret);
  return (typeof payload === 'string' ? hmac.update(payload, 'utf8') : hmac.update(rawBytes(payload))).digest();
}

/** Signs the raw body with each secret: `t=<now>,v1=<hex>[,v1=…]`. */
export function sign(payload: WebhookPayload, secret: WebhookSecret, options?: SignOptions): string {
  assertPayload(payload);
  const secrets = secretList(secret);
  const timestamp = signingTime(options);
  return formatSignatureHeader(timestamp, secrets.map((s) => digest(payload, s).toString('hex')));
}

/** Verifies signature, then timestamp, and returns the parsed event; throws WebhookVerificationError. */
export function verify<T = unknown>(
  payload: WebhookPayload, header: SignatureHeaderValue, secret: WebhookSecret, options?: VerifyOptions,
): WebhookEvent<T> {
  const input = verifyInput(payload, header, secret, options);
  const expected = input.signatures.map((hex) => Buffer.from(hex, 'hex'));
  let matched = false;
  for (const s of input.secrets) {
    const actual = digest(input.payload, s);
    for (const candidate of expected) matched = timingSafeEqual(actual, candidate) || matched;
  }
  if (!matched) throw fail.mismatch();
  assertFresh(input.timestamp, options);
  return parseEvent<T>(input.payload);
}

/** A valid header for `payload`, for receivers' tests. */
export function generateTestHeader({ payload, secret, ...options }: TestHeaderOptions): string {
  return sign(payload, secret, options);
}
