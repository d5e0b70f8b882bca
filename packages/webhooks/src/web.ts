import { formatSignatureHeader } from './header.js';
import { fromHex, toHex } from './hex.js';
import { fail } from './messages.js';
import { assertFresh, secretList, signingTime } from './options.js';
import { assertPayload, parseEvent } from './payload.js';
import type {
  SignatureHeaderValue, SignOptions, TestHeaderOptions, VerifyOptions, WebhookEvent, WebhookPayload, WebhookSecret,
} from './types.js';
import { verifyInput } from './verify-input.js';
import { bytesOf, hmacKey, HMAC, subtle } from './web-crypto.js';

// Web Crypto only (globalThis.crypto.subtle): runs in edge runtimes, Deno, Bun, browsers and Node ≥ 20.
// Nothing here or below imports a node: module.

/** Signs the raw body with each secret: `t=<now>,v1=<hex>[,v1=…]`. */
export async function signAsync(payload: WebhookPayload, secret: WebhookSecret, options?: SignOptions): Promise<string> {
  assertPayload(payload);
  const secrets = secretList(secret);
  const timestamp = signingTime(options);
  const data = bytesOf(payload);
  const digests = await Promise.all(
    secrets.map(async (s) => toHex(new Uint8Array(await subtle().sign(HMAC, await hmacKey(s), data)))),
  );
  return formatSignatureHeader(timestamp, digests);
}

/** Verifies signature, then timestamp, and returns the parsed event; throws WebhookVerificationError. */
export async function verifyAsync<T = unknown>(
  payload: WebhookPayload, header: SignatureHeaderValue, secret: WebhookSecret, options?: VerifyOptions,
): Promise<WebhookEvent<T>> {
  const input = verifyInput(payload, header, secret, options);
  const data = bytesOf(input.payload);
  // subtle.verify rather than sign + a hand-written compare: the platform compares the MAC in
  // constant time (CRYPTO_memcmp in Node and BoringSSL), which JIT-compiled JS cannot promise.
  let matched = false;
  for (const s of input.secrets) {
    const key = await hmacKey(s);
    for (const signature of input.signatures) matched = (await subtle().verify(HMAC, key, fromHex(signature), data)) || matched;
  }
  if (!matched) throw fail.mismatch();
  assertFresh(input.timestamp, options);
  return parseEvent<T>(input.payload);
}

/** A valid header for `payload`, for receivers' tests. */
export function generateTestHeaderAsync({ payload, secret, ...options }: TestHeaderOptions): Promise<string> {
  return signAsync(payload, secret, options);
}
