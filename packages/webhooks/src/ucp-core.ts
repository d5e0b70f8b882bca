/**
 * UCP 2026-04-08 request signatures (signatures.md, "REST Binding"): RFC 9421 HTTP Message
 * Signatures over `@method`, `@authority`, `@path`, `@query` (when the URL has one), `ucp-agent`
 * (when present), `idempotency-key` (when present), `content-digest` and `content-type` (when there
 * is a body), with an RFC 9530 `Content-Digest: sha-256=:…:` of the raw body and ES256 (raw r||s).
 *
 * This module holds everything but the cryptography, shared by the node:crypto and Web Crypto
 * flavours. Nothing here imports a node: module.
 */
import { isArrayBuffer, rawBytes } from './payload.js';

export type UcpSignatureErrorCode =
  | 'signature_missing'
  | 'signature_invalid'
  | 'key_not_found'
  | 'digest_missing'
  | 'digest_mismatch'
  | 'algorithm_unsupported'
  | 'signature_expired'
  | 'signature_malformed'
  | 'invalid_body'
  | 'invalid_key';

/**
 * Every refusal of the UCP verifiers. `code` is stable; the first five are the error codes of
 * UCP signatures.md "Error Handling" (`signature_missing`, `signature_invalid`, `key_not_found`,
 * `digest_mismatch`, `algorithm_unsupported`), the rest narrow down what was wrong.
 */
export class UcpSignatureError extends Error {
  override readonly name = 'UcpSignatureError';
  readonly code: UcpSignatureErrorCode;

  constructor(code: UcpSignatureErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** An EC public key as published in `signing_keys` of `/.well-known/ucp` (RFC 7517). */
export interface UcpJwk {
  kid?: string;
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  d?: string;
  use?: string;
  alg?: string;
  [member: string]: unknown;
}

/** Headers as Node (`IncomingHttpHeaders`), fetch (`Headers`) or a plain record give them. */
export type UcpHeaders =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | number | undefined>;

/** The raw request body: never the parsed JSON. */
export type UcpBody = string | ArrayBuffer | ArrayBufferView;

export interface UcpSignRequest {
  method: string;
  /** The absolute target URL (`https://platform.example/webhooks/ucp?x=1`). */
  url: string | URL;
  /** The request's headers; `Content-Type` (default `application/json` when there is a body), `UCP-Agent`, `Idempotency-Key` are signed when present. */
  headers?: UcpHeaders;
  body?: UcpBody;
  /** Key ID published in `signing_keys` (defaults to the JWK's `kid`). */
  keyid?: string;
  /** Unix seconds for `created`; defaults to now. `false` leaves `created` out (it is OPTIONAL in UCP). */
  created?: number | false;
  /** Unix seconds for `expires` (optional). */
  expires?: number;
  /** Signature label; default `sig1`. */
  label?: string;
}

/** The headers to add to the request. */
export interface UcpSignedHeaders {
  /** Absent for a request without a body. */
  'Content-Digest'?: string;
  /** `application/json`, only when the request has a body and no Content-Type of its own (it is signed). */
  'Content-Type'?: string;
  'Signature-Input': string;
  'Signature': string;
}

export interface UcpVerifyRequest {
  method: string;
  /** The absolute URL the request was sent to, as the sender saw it (behind a proxy: the public URL). */
  url: string | URL;
  headers: UcpHeaders;
  body: UcpBody;
}

export interface UcpVerifyOptions {
  /** Seconds `created` may lie from now (either way), default 300. */
  tolerance?: number;
  /** Refuse a signature without `created`; default false (UCP makes `created` OPTIONAL). */
  requireCreated?: boolean;
  /** Which `Signature-Input` label to verify; default: the first. */
  label?: string;
  /** Clock in milliseconds, for tests. */
  now?: () => number;
}

const fail = (code: UcpSignatureErrorCode, message: string, cause?: unknown) =>
  new UcpSignatureError(code, message, cause === undefined ? undefined : { cause });

export { fail as ucpFail };

// ---- bytes and base64 ----------------------------------------------------------------------

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

// ---- headers --------------------------------------------------------------------------------

/** A header's field value: multiple lines joined with ", ", trimmed (RFC 9421 §2.1). */
export function headerValue(headers: UcpHeaders | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v = (headers as { get(name: string): string | null }).get(name);
    return v === null ? undefined : v.trim();
  }
  const lower = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    if (Array.isArray(value)) values.push(...value.map((v) => String(v).trim()));
    else values.push(String(value).trim());
  }
  return values.length ? values.join(', ') : undefined;
}

// ---- RFC 8941 pieces --------------------------------------------------------------------------

/** Splits a dictionary's top-level members on commas outside strings/inner lists. */
function dictionaryMembers(text: string): Map<string, string> {
  const members = new Map<string, string>();
  let depth = 0;
  let quoted = false;
  let start = 0;
  const push = (end: number) => {
    const member = text.slice(start, end).trim();
    if (!member) return;
    const eq = member.indexOf('=');
    const key = (eq < 0 ? member : member.slice(0, eq)).trim();
    if (!/^[a-z*][a-z0-9_\-.*]*$/.test(key)) throw fail('signature_malformed', `Malformed dictionary key ${JSON.stringify(key)}.`);
    members.set(key, eq < 0 ? '?1' : member.slice(eq + 1).trim());
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      push(i);
      start = i + 1;
    }
  }
  if (quoted || depth !== 0) throw fail('signature_malformed', 'Unbalanced quotes or parentheses in a structured header.');
  push(text.length);
  return members;
}

export interface SignatureParams {
  /** The inner list member exactly as received: `("@method" …);created=…;keyid="…"`. */
  raw: string;
  components: string[];
  keyid?: string;
  created?: number;
  expires?: number;
  alg?: string;
  nonce?: string;
  tag?: string;
}

/** Parses one `Signature-Input` member (an inner list of component strings with parameters). */
export function parseSignatureParams(raw: string): SignatureParams {
  const m = /^\(((?:\s*"[^"\\]*")*)\s*\)((?:;[^;]*)*)$/.exec(raw);
  if (!m) throw fail('signature_malformed', `Signature-Input member is not an inner list of component names: ${raw}`);
  const components = [...m[1]!.matchAll(/"([^"\\]*)"/g)].map((c) => c[1]!);
  const out: SignatureParams = { raw, components };
  for (const param of m[2]!.split(';').slice(1)) {
    const pm = /^([a-z*][a-z0-9_\-.*]*)=(?:"([^"\\]*)"|(-?\d{1,15}))$/.exec(param.trim());
    if (!pm) throw fail('signature_malformed', `Malformed signature parameter ${JSON.stringify(param)}.`);
    const [, key, str, num] = pm;
    if (key === 'created' || key === 'expires') {
      if (num === undefined) throw fail('signature_malformed', `${key} must be an integer.`);
      out[key] = Number(num);
    } else if (key === 'keyid' || key === 'alg' || key === 'nonce' || key === 'tag') {
      if (str === undefined) throw fail('signature_malformed', `${key} must be a string.`);
      out[key] = str;
    }
  }
  return out;
}

/** The RFC 9421 §2.3 serialization of `@signature-params` this package signs. */
export function formatSignatureParams(components: readonly string[], params: { created?: number; expires?: number; keyid: string }): string {
  let out = `(${components.map((c) => `"${c}"`).join(' ')})`;
  if (params.created !== undefined) out += `;created=${params.created}`;
  if (params.expires !== undefined) out += `;expires=${params.expires}`;
  if (!/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(params.keyid)) throw fail('invalid_key', 'keyid must be printable ASCII without quotes or backslashes.');
  return `${out};keyid="${params.keyid}"`;
}

// ---- the signature base -----------------------------------------------------------------------

function targetUrl(url: string | URL): URL {
  try {
    return new URL(String(url));
  } catch (cause) {
    throw fail('signature_malformed', `The request URL must be absolute (scheme and host), got ${JSON.stringify(String(url))}.`, cause);
  }
}

/** RFC 9421 §2.5: one `"name": value` line per covered component, then `"@signature-params"`. */
export function signatureBase(method: string, url: string | URL, headers: UcpHeaders | undefined, params: SignatureParams): string {
  const target = targetUrl(url);
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const name of params.components) {
    if (seen.has(name)) throw fail('signature_malformed', `Component "${name}" is covered twice.`);
    seen.add(name);
    let value: string | undefined;
    switch (name) {
      case '@method': value = method; break;
      case '@authority': value = target.host.toLowerCase(); break; // URL drops a default port already
      case '@path': value = target.pathname || '/'; break;
      case '@query': value = target.search || '?'; break;
      case '@target-uri': value = target.href; break;
      case '@scheme': value = target.protocol.slice(0, -1).toLowerCase(); break;
      case '@request-target': value = `${target.pathname || '/'}${target.search}`; break;
      default:
        if (name.startsWith('@') || !/^[a-z0-9!#$%&'*+\-.^_`|~]+$/.test(name)) {
          throw fail('signature_malformed', `Unsupported covered component "${name}".`);
        }
        value = headerValue(headers, name);
        if (value === undefined) throw fail('signature_invalid', `The signature covers the "${name}" header, which the request does not carry.`);
    }
    if (/[\r\n]/.test(value)) throw fail('signature_malformed', `Component "${name}" contains a line break.`);
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${params.raw}`);
  return lines.join('\n');
}

/** The components UCP requires for this request (signatures.md "REST Request Signing"). */
export function requiredComponents(url: string | URL, headers: UcpHeaders | undefined, hasBody: boolean): string[] {
  const components = ['@method', '@authority', '@path'];
  if (targetUrl(url).search) components.push('@query');
  if (headerValue(headers, 'ucp-agent') !== undefined) components.push('ucp-agent');
  if (headerValue(headers, 'idempotency-key') !== undefined) components.push('idempotency-key');
  if (hasBody) components.push('content-digest', 'content-type');
  return components;
}

// ---- signing and verification plans, around the crypto of each flavour ------------------------

export const contentDigestHeader = (sha256: Uint8Array) => `sha-256=:${toBase64(sha256)}:`;

/** Everything the signer needs but the signature: params, base, extra headers. */
export function planSigning(request: UcpSignRequest, keyid: string | undefined, digest: Uint8Array | undefined, nowSeconds: number) {
  if (!keyid) throw fail('invalid_key', 'A keyid is needed: pass options.keyid or a JWK with a "kid".');
  const label = request.label ?? 'sig1';
  if (!/^[a-z*][a-z0-9_\-.*]*$/.test(label)) throw fail('signature_malformed', `Invalid signature label ${JSON.stringify(label)}.`);
  const extra: Record<string, string> = {};
  const hasBody = digest !== undefined;
  const addType = hasBody && headerValue(request.headers, 'content-type') === undefined;
  if (hasBody) {
    extra['content-digest'] = contentDigestHeader(digest);
    extra['content-type'] = headerValue(request.headers, 'content-type') ?? 'application/json';
  }
  const headers = { ...plainHeaders(request.headers), ...extra };
  const components = requiredComponents(request.url, headers, hasBody);
  const created = request.created === false ? undefined : (request.created ?? nowSeconds);
  const raw = formatSignatureParams(components, { created, expires: request.expires, keyid });
  const base = signatureBase(request.method.toUpperCase(), request.url, headers, { raw, components });
  return {
    base,
    headers: (signature: Uint8Array): UcpSignedHeaders => ({
      ...(hasBody ? { 'Content-Digest': extra['content-digest']! } : {}),
      ...(addType ? { 'Content-Type': extra['content-type']! } : {}),
      'Signature-Input': `${label}=${raw}`,
      'Signature': `${label}=:${toBase64(signature)}:`,
    }),
  };
}

function plainHeaders(headers: UcpHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const names = typeof (headers as { get?: unknown }).get === 'function'
    ? [...(headers as unknown as { keys(): Iterable<string> }).keys()]
    : Object.keys(headers);
  for (const name of names) {
    const value = headerValue(headers, name);
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

export interface VerificationPlan {
  params: SignatureParams;
  base: string;
  signature: Uint8Array;
  key: UcpJwk;
  body: Uint8Array<ArrayBuffer>;
  /** The `sha-256` member of Content-Digest, when the request has a body. */
  digest?: Uint8Array;
}

/** Parses and checks everything but the digest and the signature themselves. */
export function planVerification(request: UcpVerifyRequest, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] }, options: UcpVerifyOptions = {}): VerificationPlan {
  const body = bodyBytes(request.body);
  const input = headerValue(request.headers, 'signature-input');
  const sigHeader = headerValue(request.headers, 'signature');
  if (!input) throw fail('signature_missing', 'The request carries no Signature-Input header.');
  if (!sigHeader) throw fail('signature_missing', 'The request carries no Signature header.');
  const inputs = dictionaryMembers(input);
  const label = options.label ?? inputs.keys().next().value;
  const rawParams = label === undefined ? undefined : inputs.get(label);
  if (label === undefined || rawParams === undefined) throw fail('signature_missing', `Signature-Input has no ${options.label ? `"${options.label}" ` : ''}signature.`);
  const params = parseSignatureParams(rawParams);
  const sigValue = dictionaryMembers(sigHeader).get(label);
  if (sigValue === undefined) throw fail('signature_missing', `The Signature header has no "${label}" member.`);
  const sm = /^:([A-Za-z0-9+/=]*):$/.exec(sigValue);
  const signature = sm ? fromBase64(sm[1]!) : undefined;
  if (!signature) throw fail('signature_malformed', `The "${label}" signature is not a byte sequence (:base64:).`);

  // Coverage: everything signatures.md makes required for this request must be signed.
  for (const name of requiredComponents(request.url, request.headers, body.length > 0)) {
    if (!params.components.includes(name)) throw fail('signature_invalid', `The signature does not cover "${name}", which UCP requires for this request.`);
  }

  // The key, by keyid, in the signer's signing_keys.
  if (!params.keyid) throw fail('key_not_found', 'Signature-Input has no keyid.');
  const list = Array.isArray(keys) ? keys : (keys as { keys: readonly UcpJwk[] }).keys;
  const key = list.find((k) => k.kid === params.keyid);
  if (!key) throw fail('key_not_found', `No key with kid "${params.keyid}" in the signer's signing_keys.`);
  assertEs256Key(key);
  // signatures.md: the algorithm comes from the key's crv, `alg` is not sent; if a sender does, it must agree.
  if (params.alg !== undefined && params.alg !== 'ecdsa-p256-sha256') {
    throw fail('algorithm_unsupported', `Signature alg "${params.alg}" does not match the ES256 (P-256) key "${key.kid}".`);
  }
  if (signature.length !== 64) {
    const der = signature[0] === 0x30 && signature.length >= 8 && signature.length <= 72;
    throw fail('signature_invalid', der
      ? 'The signature looks ASN.1/DER-encoded; UCP (RFC 9421 §3.3.4) requires the raw 64-byte r||s encoding of ES256.'
      : `An ES256 signature is 64 bytes (r||s), got ${signature.length}.`);
  }

  // Time: created within the tolerance (when present, or when required), expires not passed.
  const now = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const tolerance = options.tolerance ?? 300;
  if (params.created === undefined) {
    if (options.requireCreated) throw fail('signature_expired', 'The signature has no created parameter, and requireCreated is set.');
  } else if (params.created < now - tolerance) {
    throw fail('signature_expired', `The signature was created ${now - params.created}s ago, beyond the ${tolerance}s tolerance.`);
  } else if (params.created > now + tolerance) {
    throw fail('signature_expired', `The signature's created lies ${params.created - now}s in the future, beyond the ${tolerance}s tolerance.`);
  }
  if (params.expires !== undefined && params.expires < now) throw fail('signature_expired', `The signature expired ${now - params.expires}s ago.`);

  // Content-Digest (RFC 9530): required with a body, its sha-256 member compared by the caller.
  let digest: Uint8Array | undefined;
  if (body.length > 0 || params.components.includes('content-digest')) {
    const header = headerValue(request.headers, 'content-digest');
    if (header === undefined) throw fail('digest_missing', 'The request has a body but no Content-Digest header.');
    const member = dictionaryMembers(header).get('sha-256');
    const dm = member === undefined ? undefined : /^:([A-Za-z0-9+/=]*):$/.exec(member);
    digest = dm ? fromBase64(dm[1]!) : undefined;
    if (!digest || digest.length !== 32) throw fail('digest_mismatch', 'Content-Digest has no well-formed sha-256 member (UCP requires sha-256).');
  }

  const base = signatureBase(request.method, request.url, request.headers, params);
  return { params, base, signature, key, body, digest };
}

/** Only P-256 EC keys (ES256): ES384 is OPTIONAL in UCP and not supported here. */
export function assertEs256Key(key: UcpJwk): void {
  if (key.kty !== 'EC') throw fail('algorithm_unsupported', `Key "${key.kid}" has kty "${key.kty}"; UCP signing keys are EC.`);
  if (key.crv !== 'P-256') throw fail('algorithm_unsupported', `Key "${key.kid}" is on curve ${key.crv}; this package verifies ES256 (P-256) only.`);
  if (key.alg !== undefined && key.alg !== 'ES256') throw fail('algorithm_unsupported', `Key "${key.kid}" declares alg "${key.alg}", not ES256.`);
  if (typeof key.x !== 'string' || typeof key.y !== 'string') throw fail('invalid_key', `Key "${key.kid}" lacks x or y.`);
}

/** The public members only: Node and Web Crypto both refuse unknown shapes less kindly. */
export const publicJwk = (key: UcpJwk) => ({ kty: 'EC', crv: 'P-256', x: key.x!, y: key.y! });

/** JSON.parse of the verified body. */
export function parseJsonBody<T>(body: Uint8Array): T {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as T;
  } catch (cause) {
    throw fail('invalid_body', 'The verified body is not UTF-8 JSON.', cause);
  }
}

// ---- UCP 2026-01-11: a detached JWS in `Request-Signature` ------------------------------------
//
// order.md (2026-01-11) "Webhook Signature Verification": the business creates "a detached JWT
// (RFC 7797) over the request body" with a key of its `signing_keys`, puts it in
// `Request-Signature`, with the key ID in the JOSE header's `kid`. RFC 7797 is the unencoded
// payload option: `{"alg":"ES256","kid":…,"b64":false,"crit":["b64"]}`, signing input
// `BASE64URL(header) || "." || raw body`, serialized detached as `<header>..<signature>`
// (RFC 7515 Appendix F). The signer emits that; the verifier also accepts the plain Appendix F
// form (no `b64`, signing input over BASE64URL(body)), since the prose can be read either way.

export interface UcpJwsSignOptions {
  /** Key ID published in `signing_keys` (defaults to the JWK's `kid`). */
  keyid?: string;
  /** `false` (default): RFC 7797 unencoded payload (`b64: false`, `crit: ["b64"]`); `true`: RFC 7515 Appendix F over BASE64URL(body). */
  b64?: boolean;
}

export function planJwsSigning(body: Uint8Array, keyid: string | undefined, options: UcpJwsSignOptions = {}) {
  if (!keyid) throw fail('invalid_key', 'A keyid is needed: pass options.keyid or a JWK with a "kid".');
  const header = options.b64 ? { alg: 'ES256', kid: keyid } : { alg: 'ES256', kid: keyid, b64: false, crit: ['b64'] };
  const encodedHeader = toBase64Url(utf8Bytes(JSON.stringify(header)));
  return {
    input: jwsSigningInput(encodedHeader, body, options.b64 === true),
    serialize: (signature: Uint8Array) => `${encodedHeader}..${toBase64Url(signature)}`,
  };
}

function jwsSigningInput(encodedHeader: string, body: Uint8Array, b64: boolean): Uint8Array<ArrayBuffer> {
  const prefix = utf8Bytes(`${encodedHeader}.`);
  const payload = b64 ? utf8Bytes(toBase64Url(body)) : body;
  const out = new Uint8Array(prefix.length + payload.length);
  out.set(prefix);
  out.set(payload, prefix.length);
  return out;
}

export interface JwsVerificationPlan {
  input: Uint8Array<ArrayBuffer>;
  signature: Uint8Array;
  key: UcpJwk;
  body: Uint8Array<ArrayBuffer>;
}

/** Parses the `Request-Signature` JWS and finds its key; the caller checks the signature. */
export function planJwsVerification(body: UcpBody, header: string | null | undefined, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] }): JwsVerificationPlan {
  const bytes = bodyBytes(body);
  if (header === undefined || header === null || header.trim() === '') throw fail('signature_missing', 'The request carries no Request-Signature header.');
  const parts = header.trim().split('.');
  if (parts.length !== 3) throw fail('signature_malformed', 'Request-Signature is not a compact JWS (<header>..<signature>).');
  const [encodedHeader, payload, encodedSignature] = parts as [string, string, string];
  if (payload !== '') throw fail('signature_malformed', 'Request-Signature carries a payload; UCP sends a detached JWS (<header>..<signature>) over the request body.');
  const headerBytes = fromBase64Url(encodedHeader);
  let jose: Record<string, unknown>;
  try {
    jose = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes)) as Record<string, unknown>;
    if (!headerBytes || typeof jose !== 'object' || jose === null || Array.isArray(jose)) throw new Error('not an object');
  } catch (cause) {
    throw fail('signature_malformed', 'The JWS header is not base64url JSON.', cause);
  }
  if (jose['alg'] !== 'ES256') throw fail('algorithm_unsupported', `JWS alg ${JSON.stringify(jose['alg'])} is not supported; UCP webhooks use ES256.`);
  const crit = jose['crit'];
  if (crit !== undefined && (!Array.isArray(crit) || crit.length === 0 || crit.some((c) => c !== 'b64'))) {
    throw fail('signature_malformed', `JWS crit ${JSON.stringify(crit)} names extensions this verifier does not understand (RFC 7515 §4.1.11).`);
  }
  const b64 = jose['b64'];
  if (b64 !== undefined && typeof b64 !== 'boolean') throw fail('signature_malformed', 'JWS b64 must be a boolean.');
  if (b64 === false && !(Array.isArray(crit) && crit.includes('b64'))) throw fail('signature_malformed', 'JWS b64: false must be listed in crit (RFC 7797 §6).');
  const kid = jose['kid'];
  if (typeof kid !== 'string' || kid === '') throw fail('key_not_found', 'The JWS header has no kid.');
  const list = Array.isArray(keys) ? keys : (keys as { keys: readonly UcpJwk[] }).keys;
  const key = list.find((k) => k.kid === kid);
  if (!key) throw fail('key_not_found', `No key with kid "${kid}" in the signer's signing_keys.`);
  assertEs256Key(key);
  const signature = fromBase64Url(encodedSignature);
  if (!signature) throw fail('signature_malformed', 'The JWS signature is not base64url.');
  if (signature.length !== 64) {
    throw fail('signature_invalid', signature[0] === 0x30
      ? 'The JWS signature looks ASN.1/DER-encoded; ES256 in JWS (RFC 7518 §3.4) is the raw 64-byte r||s.'
      : `An ES256 JWS signature is 64 bytes (r||s), got ${signature.length}.`);
  }
  return { input: jwsSigningInput(encodedHeader, bytes, b64 !== false), signature, key, body: bytes };
}
