/** UCP 2026-04-08 RFC 9421 request signatures (the protocol in ucp/, the crypto here) with Web Crypto. No node: imports. */
import { bodyBytes, equalBytes, utf8Bytes } from './ucp/bytes.js';
import { ucpFail } from './ucp/errors.js';
import { planJwsSigning, planJwsVerification, type UcpJwsSignOptions } from './ucp/jws.js';
import { assertEs256Key, publicJwk } from './ucp/keys.js';
import { planSigning } from './ucp/signing-plan.js';
import type { UcpBody, UcpJwk, UcpSignedHeaders, UcpSignRequest, UcpVerifyOptions, UcpVerifyRequest } from './ucp/types.js';
import { parseJsonBody, planVerification } from './ucp/verification-plan.js';
import { subtle } from './web-crypto.js';

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ES256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** The shape of a Web Crypto `CryptoKey`, declared here so the types need neither DOM nor @types/node. */
export interface UcpCryptoKey {
  readonly type: string;
  readonly algorithm: { readonly name: string };
  readonly extractable: boolean;
  readonly usages: readonly string[];
}
type CryptoKey = Awaited<ReturnType<ReturnType<typeof subtle>['importKey']>>;

/** A P-256 private key: a JWK with `d`, or a CryptoKey (ECDSA P-256, usage "sign"). */
export type UcpWebPrivateKey = UcpJwk | UcpCryptoKey;

const isCryptoKey = (key: unknown): key is UcpCryptoKey =>
  typeof key === 'object' && key !== null && Object.prototype.toString.call(key) === '[object CryptoKey]';

async function privateKey(key: UcpWebPrivateKey): Promise<CryptoKey> {
  if (isCryptoKey(key)) {
    const algorithm = key.algorithm as { name: string; namedCurve?: string };
    if (key.type !== 'private' || algorithm.name !== 'ECDSA' || algorithm.namedCurve !== 'P-256') {
      throw ucpFail('invalid_key', 'The signing key must be an ECDSA P-256 private CryptoKey.');
    }
    return key as unknown as CryptoKey;
  }
  assertEs256Key(key);
  if (typeof key.d !== 'string') throw ucpFail('invalid_key', `JWK "${key.kid}" has no "d": a private key is needed to sign.`);
  try {
    return await subtle().importKey('jwk', { ...publicJwk(key), d: key.d }, ECDSA_P256, false, ['sign']);
  } catch (cause) {
    throw ucpFail('invalid_key', `JWK "${key.kid}" is not a valid P-256 private key.`, cause);
  }
}

async function publicKey(key: UcpJwk): Promise<CryptoKey> {
  try {
    return await subtle().importKey('jwk', publicJwk(key), ECDSA_P256, false, ['verify']);
  } catch (cause) {
    throw ucpFail('invalid_key', `Key "${key.kid}" is not a valid P-256 public key.`, cause);
  }
}

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await subtle().digest('SHA-256', bytes));

/** `signUcpRequest` for edge runtimes: Web Crypto's ECDSA signatures are raw r||s already. */
export async function signUcpRequestAsync(request: UcpSignRequest, key: UcpWebPrivateKey): Promise<UcpSignedHeaders> {
  const body = bodyBytes(request.body);
  const keyid = request.keyid ?? (isCryptoKey(key) ? undefined : key.kid);
  const digest = body.length > 0 ? await sha256(body) : undefined;
  const plan = planSigning(request, keyid, digest, Math.floor(Date.now() / 1000));
  const signature = new Uint8Array(await subtle().sign(ES256, await privateKey(key), utf8Bytes(plan.base)));
  return plan.headers(signature);
}

/** `verifyUcpRequest` for edge runtimes; resolves to the parsed JSON body or rejects with UcpSignatureError. */
export async function verifyUcpRequestAsync<T = unknown>(
  request: UcpVerifyRequest, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] }, options?: UcpVerifyOptions,
): Promise<T> {
  const plan = planVerification(request, keys, options);
  if (plan.digest && !equalBytes(await sha256(plan.body), plan.digest)) {
    throw ucpFail('digest_mismatch', 'Content-Digest does not match the body: it was altered, re-serialized, or is not the raw body.');
  }
  const ok = await subtle().verify(ES256, await publicKey(plan.key), plan.signature as Uint8Array<ArrayBuffer>, utf8Bytes(plan.base));
  if (!ok) throw ucpFail('signature_invalid', `Signature verification failed for key kid=${plan.key.kid}.`);
  return plan.body.length > 0 ? parseJsonBody<T>(plan.body) : (undefined as T);
}

/** `signUcpDetachedJws` for edge runtimes (UCP 2026-01-11 `Request-Signature`). */
export async function signUcpDetachedJwsAsync(body: UcpBody, key: UcpWebPrivateKey, options?: UcpJwsSignOptions): Promise<string> {
  const plan = planJwsSigning(bodyBytes(body), options?.keyid ?? (isCryptoKey(key) ? undefined : key.kid), options);
  return plan.serialize(new Uint8Array(await subtle().sign(ES256, await privateKey(key), plan.input)));
}

/** `verifyUcpDetachedJws` for edge runtimes; resolves to the parsed JSON body or rejects with UcpSignatureError. */
export async function verifyUcpDetachedJwsAsync<T = unknown>(
  body: UcpBody, requestSignature: string | null | undefined, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] },
): Promise<T> {
  const plan = planJwsVerification(body, requestSignature, keys);
  if (!(await subtle().verify(ES256, await publicKey(plan.key), plan.signature as Uint8Array<ArrayBuffer>, plan.input))) {
    throw ucpFail('signature_invalid', `Request-Signature verification failed for key kid=${plan.key.kid}.`);
  }
  return parseJsonBody<T>(plan.body);
}
