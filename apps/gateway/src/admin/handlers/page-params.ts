import type { Request } from 'express';
import type { PageParams } from '../page-cursor.js';

/** `limit` and `cursor` as the edge validated them (limit's default filled in). */
export function pageParams(req: Request): PageParams {
  const query = req.ctx.query ?? {};
  return { limit: Number(query.limit ?? 20), cursor: typeof query.cursor === 'string' ? query.cursor : undefined };
}

/** A path parameter the contract requires. */
export const pathParam = (req: Request, name: string): string => req.ctx.pathParams![name]!;
