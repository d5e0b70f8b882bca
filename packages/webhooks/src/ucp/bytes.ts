/** Bytes, strict base64 and base64url, constant-time comparison: what the UCP signatures need. No node: imports. */
import { isArrayBuffer, rawBytes } from '../payload.js';
import { ucpFail as fail } from './errors.js';

let encoder: InstanceType<typeof TextEncoder> | undefined;
export const utf8Bytes = (text: string) => (encoder ??= new TextEncoder()).encode(text) as Uint8Array<ArrayBuffer>;

/** The body as bytes; refuses parsed JSON. */
export function bodyBytes(body: unknown): Uint8Array<ArrayBuffer> {
  if (body === undefined || body === null) return new Uint8Array(0);
  if (typeof body === 'string') return utf8Bytes(body);
  if (ArrayBuffer.isView(body) || isArrayBuffer(body)) return rawBytes(body as ArrayBufferView) as Uint8Array<ArrayBuffer>;
  throw fail('invalid_body', 'The body must be the raw request body (string, Buffer, Uint8Array or ArrayBuffer), not parsed JSON: the digest covers the exact bytes.');
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=') + (i + 2 < bytes.length ? B64[n & 63]! : '=');
  }
  return out;
}

/** Strict base64 (RFC 4648 §4, padded) — an RFC 8941 byte sequence; undefined when malformed. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let o = 0;
  for (const c of clean) {
    value = (value << 6) | B64.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 255;
    }
  }
  return out;
}

export const toBase64Url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
}

/** Compares without an early exit. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
