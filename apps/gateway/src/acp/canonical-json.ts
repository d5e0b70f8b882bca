/**
 * Canonical JSON after RFC 8785 (JCS): object members sorted by their UTF-16 code units, no
 * whitespace, strings and numbers as ECMAScript's JSON.stringify writes them. What an ACP
 * `Signature` is computed over.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
}
