import { ConfigurationError } from '../errors/errors.js';

/**
 * Request signing v2 with Web Crypto only: the `X-Request-Signature` header, which covers the
 * method, the request target (path and raw query, as sent), the `Merchant-Id` header, the body
 * and the time of signing — so, unlike the body-only `Signature`, it cannot be moved onto another
 * request. Keys whose signature scheme is `v2` accept only this one.
 *
 *   X-Request-Signature: t=<unix seconds>,v2=<hex HMAC-SHA256 of the signing string>
 *   signing string = "v2\n" + t + "\n" + METHOD + "\n" + target + "\n" + Merchant-Id + "\n" + hex(SHA-256(body))
 *
 * For clients that do not use `CommerceGateway` (which signs every request itself):
 *
 *   const signature = await signRequestV2(secret, { method: 'POST', target: '/checkout_sessions/cs_1/cancel' });
 *   fetch(url, { method: 'POST', headers: { 'X-Request-Signature': signature, … } });
 */
export const SIGNATURE_V2_HEADER = 'X-Request-Signature';

export interface RequestToSign {
  /** The HTTP method; upper-cased when signed. */
  method: string;
  /** The path and, when there is one, `?` and the query, exactly as sent (`new URL(url).pathname + search`). */
  target: string;
  /** The `Merchant-Id` header sent, if any. */
  merchantId?: string | undefined;
  /** The exact body bytes (a string is taken as UTF-8); none for GET and bodiless POSTs. */
  body?: string | Uint8Array | undefined;
}

/** Signs requests with one secret (its HMAC key imported once); `t` in Unix seconds, default now. */
export type RequestSignerV2 = (request: RequestToSign, t?: number) => Promise<string>;

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  let out = '';
  for (const byte of new Uint8Array(bytes)) out += byte.toString(16).padStart(2, '0');
  return out;
}

export function createRequestSignerV2(secret: string): RequestSignerV2 {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new ConfigurationError('signingSecret needs Web Crypto (globalThis.crypto.subtle), which this runtime lacks; in a browser it exists only on https:// pages');
  }
  let key: Promise<CryptoKey> | undefined;
  return async (request, t = Math.floor(Date.now() / 1000)) => {
    key ??= subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const body = typeof request.body === 'string' ? encoder.encode(request.body) : (request.body ?? new Uint8Array(0));
    const bodyDigest = hex(await subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
    const signing = ['v2', String(t), request.method.toUpperCase(), request.target, request.merchantId ?? '', bodyDigest].join('\n');
    return `t=${t},v2=${hex(await subtle.sign('HMAC', await key, encoder.encode(signing)))}`;
  };
}

/** One request's `X-Request-Signature` value. */
export function signRequestV2(secret: string, request: RequestToSign, t?: number): Promise<string> {
  return createRequestSignerV2(secret)(request, t);
}

/** Adds `X-Request-Signature` to a `Request` about to be sent (its URL, method, Merchant-Id and body as they are). */
export async function signFetchRequest(sign: RequestSignerV2, request: Request): Promise<Request> {
  const url = new URL(request.url);
  const body = request.body === null ? undefined : new Uint8Array(await request.clone().arrayBuffer());
  request.headers.set(SIGNATURE_V2_HEADER, await sign({ method: request.method, target: url.pathname + url.search, merchantId: request.headers.get('merchant-id') ?? undefined, body }));
  return request;
}
