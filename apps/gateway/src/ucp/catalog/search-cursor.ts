/**
 * The opaque cursor of search_catalog (types/pagination.json): base64url of `{v, o, k}` — a format
 * version, the offset of the next page, and a fingerprint of the search it continues (query, filters,
 * currency). A cursor we did not issue, or one issued for another search, is refused with 400
 * `invalid_cursor`; nothing else is read from it. A stateless offset: a catalog that changes between
 * pages may shift an item across a page boundary (the spec calls results non-transactional).
 */
import { createHash } from 'node:crypto';
import { UcpError } from '../ucp-error.js';

const VERSION = 1;
/** The deepest offset a cursor may name (a deeper page is not a browsing use). */
export const MAX_OFFSET = 10_000;

/** The fingerprint of a search: the same inputs give the same one. */
export function searchFingerprint(inputs: unknown): string {
  return createHash('sha256').update(JSON.stringify(inputs)).digest('base64url').slice(0, 16);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ v: VERSION, o: offset, k: fingerprint })).toString('base64url');
}

/** The offset a cursor names; 400 `invalid_cursor` when it is not ours or not for this search. */
export function decodeCursor(cursor: string, fingerprint: string): number {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('it is not a cursor this business issued');
  }
  const { v, o, k } = (parsed ?? {}) as { v?: unknown; o?: unknown; k?: unknown };
  if (v !== VERSION || typeof o !== 'number' || !Number.isInteger(o) || o < 0 || o > MAX_OFFSET || typeof k !== 'string') {
    throw invalid('it is not a cursor this business issued');
  }
  if (k !== fingerprint) throw invalid('it was issued for another search (query, filters or context changed)');
  return o;
}

function invalid(why: string): UcpError {
  return new UcpError('invalid_cursor', `pagination.cursor cannot be used: ${why}; start again without a cursor`, 400);
}
