/**
 * Header field values and the pieces of RFC 8941 structured fields the UCP signatures use:
 * dictionaries (Signature-Input, Signature, Content-Digest) and `@signature-params` inner lists.
 */
import { ucpFail as fail } from './errors.js';
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

// ---- RFC 8941 pieces --------------------------------------------------------------------------

/** Splits a dictionary's top-level members on commas outside strings/inner lists. */
export function dictionaryMembers(text: string): Map<string, string> {
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
