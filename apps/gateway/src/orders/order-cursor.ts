/**
 * The `cursor` of `GET /orders`: the position of a page's last order (its `created_at` to the
 * millisecond and its `id`), base64url text. Opaque to clients; it holds no filter, so a client
 * sends the same filters with it.
 */
import { InvalidRequestError } from '../kernel/errors.js';
import type { OrderPosition } from './order-record.js';

const SHAPE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|(ord_[A-Za-z0-9_-]{1,96})$/;

export function encodeCursor(position: OrderPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

/** @throws InvalidRequestError (param `cursor`) for anything encodeCursor did not write. */
export function decodeCursor(cursor: string): OrderPosition {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor) ? SHAPE.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  const createdAt = match ? new Date(match[1]!) : undefined;
  if (!match || !createdAt || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== match[1]) {
    throw new InvalidRequestError('cursor is not one this API gave: pass the next_cursor of the previous page as it was', 'cursor');
  }
  return { createdAt, id: match[2]! };
}
