/** Ids go into the URL path: an empty or non-string id is a bug in the caller, caught before any request. */
export function requireId(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}
