/**
 * Header field values, and the UCP signatures' structured headers read through the one RFC 8941
 * parser (sf-dictionary.ts): the dictionaries Signature-Input, Signature and Content-Digest, and
 * the `@signature-params` inner list (kept as received for the signature base).
 */
import { ucpFail as fail } from './errors.js';
import { parseSfDictionary, type SfDictionaryMember, SfSyntaxError } from './sf-dictionary.js';
import type { UcpHeaders } from './types.js';

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

// ---- the signature headers, read by the one RFC 8941 parser (sf-dictionary.ts) -------------------

/** A dictionary header (`Signature-Input`, `Signature`, `Content-Digest`); `code` is the failure its syntax error is. */
export function dictionaryHeader(value: string, name: string, code: 'signature_malformed' | 'digest_mismatch'): Map<string, SfDictionaryMember> {
  try {
    return parseSfDictionary(value);
  } catch (error) {
    if (error instanceof SfSyntaxError) throw fail(code, `${name} is not an RFC 8941 dictionary: ${error.message}.`);
    throw error;
  }
}

/** The bytes of a byte-sequence member (`:base64:`), or undefined when the member is something else. */
export function memberBytes(member: SfDictionaryMember | undefined): Uint8Array | undefined {
  return member && 'value' in member && member.value instanceof Uint8Array && member.params.size === 0 ? member.value : undefined;
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

const STRING_PARAMS = ['keyid', 'alg', 'nonce', 'tag'] as const;
const INTEGER_PARAMS = ['created', 'expires'] as const;

/** One `Signature-Input` member: an inner list of component names (strings without parameters) with the signature's parameters. */
export function parseSignatureParams(member: SfDictionaryMember): SignatureParams {
  if (!('items' in member) || member.items.some((item) => typeof item.value !== 'string' || item.params.size > 0)) {
    throw fail('signature_malformed', `Signature-Input member is not an inner list of component names: ${member.text}`);
  }
  const out: SignatureParams = { raw: member.text, components: member.items.map((item) => item.value as string) };
  for (const key of INTEGER_PARAMS) {
    const value = member.params.get(key);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw fail('signature_malformed', `${key} must be an integer.`);
    out[key] = value;
  }
  for (const key of STRING_PARAMS) {
    const value = member.params.get(key);
    if (value === undefined) continue;
    if (typeof value !== 'string') throw fail('signature_malformed', `${key} must be a string.`);
    out[key] = value;
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
