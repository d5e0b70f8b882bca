/**
 * ACP's `Merchant-Signature` on Web Crypto only (edge runtimes, Deno, Bun, browsers, Node ≥ 20):
 * v1 = lowercase hex HMAC-SHA256 of `<t>.<raw body>`. Nothing here imports a node: module.
 */
import type { AcpWebhookEvent } from './acp-types.js';
import { formatSignatureHeader } from './header.js';
import { fromHex, toHex } from './hex.js';
import { fail } from './messages.js';
import { assertFresh, secretList, signingTime } from './options.js';
import { assertPayload, parseEvent, rawBytes } from './payload.js';
import type { SignatureHeaderValue, SignOptions, TestHeaderOptions, VerifyOptions, WebhookPayload, WebhookSecret } from './types.js';
import { verifyInput } from './verify-input.js';
import { hmacKey, HMAC, subtle, utf8 } from './web-crypto.js';

/** The signed bytes: `<timestamp>.` then the raw body. */
function signedBytes(payload: WebhookPayload, timestamp: number): Uint8Array<ArrayBuffer> {
  const prefix = utf8(`${timestamp}.`);
  const body = typeof payload === 'string' ? utf8(payload) : rawBytes(payload);
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix, 0);
  bytes.set(body, prefix.length);
  return bytes;
}

/** Signs `<t>.<raw body>` with each secret: the `Merchant-Signature` value `t=<now>,v1=<hex>[,v1=…]`. */
export async function signAcpAsync(payload: WebhookPayload, secret: WebhookSecret, options?: SignOptions): Promise<string> {
  assertPayload(payload);
  const secrets = secretList(secret);
  const timestamp = signingTime(options);
  const data = signedBytes(payload, timestamp);
  const digests = await Promise.all(
    secrets.map(async (s) => toHex(new Uint8Array(await subtle().sign(HMAC, await hmacKey(s), data)))),
  );
  return formatSignatureHeader(timestamp, digests);
}

/** Verifies a `Merchant-Signature`, then its timestamp; returns the parsed `{ type, data }` or throws WebhookVerificationError. */
export async function verifyAcpAsync<T = AcpWebhookEvent>(
  payload: WebhookPayload, header: SignatureHeaderValue, secret: WebhookSecret, options?: VerifyOptions,
): Promise<T> {
  const input = verifyInput(payload, header, secret, options, 'Merchant-Signature');
  const data = signedBytes(input.payload, input.timestamp);
  // subtle.verify compares the MAC in constant time inside the platform.
  let matched = false;
  for (const s of input.secrets) {
    const key = await hmacKey(s);
    for (const signature of input.signatures) matched = (await subtle().verify(HMAC, key, fromHex(signature), data)) || matched;
  }
  if (!matched) throw fail.acpMismatch();
  assertFresh(input.timestamp, options);
  return parseEvent(input.payload) as T;
}

/** A valid `Merchant-Signature` for `payload`, for receivers' tests. */
export function generateAcpTestHeaderAsync({ payload, secret, ...options }: TestHeaderOptions): Promise<string> {
  return signAcpAsync(payload, secret, options);
}
