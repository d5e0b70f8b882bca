/** Everything a UCP request signer needs but the signature itself (each flavour brings its crypto). */
import { toBase64 } from './bytes.js';
import { ucpFail as fail } from './errors.js';
import { requiredComponents, signatureBase } from './signature-base.js';
import { formatSignatureParams, headerValue } from './structured-fields.js';
import type { UcpHeaders, UcpSignedHeaders, UcpSignRequest } from './types.js';

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
