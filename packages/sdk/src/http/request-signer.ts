import { ConfigurationError } from '../errors/errors.js';

/**
 * Request signing with Web Crypto only (Node ≥ 20, browsers, edge runtimes — no node:crypto):
 * `Signature` = base64 HMAC-SHA256 of the exact body bytes sent (empty for GET and bodiless
 * POSTs), keyed with the key's signing secret. The timestamp is not part of the digest.
 */
export type RequestSigner = (body: string) => Promise<string>;

const encoder = new TextEncoder();

export function createRequestSigner(secret: string): RequestSigner {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new ConfigurationError('signingSecret needs Web Crypto (globalThis.crypto.subtle), which this runtime lacks; in a browser it exists only on https:// pages');
  }
  let key: Promise<CryptoKey> | undefined;
  return async (body) => {
    key ??= subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const digest = new Uint8Array(await subtle.sign('HMAC', await key, encoder.encode(body)));
    let binary = '';
    for (const byte of digest) binary += String.fromCharCode(byte);
    return btoa(binary);
  };
}
