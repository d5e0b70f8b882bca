/**
 * `Retry-After` in seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable.
 */
export function retryAfterSeconds(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}
