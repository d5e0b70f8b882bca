import type { Request } from 'express';

/** One cookie of the request (RFC 6265 `Cookie` header), undefined when absent. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}
