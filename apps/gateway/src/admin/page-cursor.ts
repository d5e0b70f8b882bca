/**
 * The admin API's `cursor`: the position of a page's last item (its `created_at` to the
 * millisecond and its id), base64url text — like `GET /orders`' (orders/order-cursor.ts). Opaque
 * to clients; lists are newest first, ties by id descending.
 */
import { InvalidRequestError } from '../kernel/errors.js';

export interface Position {
  createdAt: Date;
  id: string;
}

export interface Page<T> {
  items: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageParams {
  limit: number;
  cursor?: string | undefined;
}

const SHAPE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|([A-Za-z0-9_.-]{1,120})$/;

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

/** @throws InvalidRequestError (param `cursor`) for anything encodeCursor did not write. */
export function decodeCursor(cursor: string): Position {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor) ? SHAPE.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  const createdAt = match ? new Date(match[1]!) : undefined;
  if (!match || !createdAt || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== match[1]) {
    throw new InvalidRequestError('cursor is not one this API gave: pass the next_cursor of the previous page as it was', 'cursor');
  }
  return { createdAt, id: match[2]! };
}

/** Where the page of `params` starts (a domain's newest-first read takes it); undefined for the first page. */
export const positionOf = (params: PageParams): Position | undefined => (params.cursor === undefined ? undefined : decodeCursor(params.cursor));

/** Prisma's `where` for the items after `cursor` in newest-first order. */
export function after(cursor: string | undefined): { OR: object[] } | object {
  if (cursor === undefined) return {};
  const { createdAt, id } = decodeCursor(cursor);
  return { OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** One page from `limit + 1` rows read newest first. */
export function pageOf<R extends Position, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown[shown.length - 1];
  return { items: shown.map(map), has_more: more, next_cursor: more && last ? encodeCursor(last) : null };
}

/** One page of a list held in memory (sorted here newest first). */
export function pageFromList<R extends Position, T>(list: R[], params: PageParams, map: (row: R) => T): Page<T> {
  const position = params.cursor === undefined ? undefined : decodeCursor(params.cursor);
  const sorted = [...list].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const rest = position ? sorted.filter((r) => r.createdAt < position.createdAt || (r.createdAt.getTime() === position.createdAt.getTime() && r.id < position.id)) : sorted;
  return pageOf(rest.slice(0, params.limit + 1), params.limit, map);
}
