import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth: equal for semantically equal values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The request's identity for idempotency: its parsed JSON body, canonicalised —
 * key order, whitespace and `1.0` vs `1` do not matter; no body equals `{}`.
 */
export function requestFingerprint(body: unknown): string {
  const normalised = body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0) ? {} : body;
  return createHash('sha256').update(canonicalJson(normalised)).digest('hex');
}
