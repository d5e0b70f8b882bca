import { sql } from './statement.js';

/**
 * A point in time as a `timestamp(3)` value (Prisma's DateTime columns hold UTC wall-clock time
 * without a zone): the literal's zone is ignored by the cast, whatever the session's TimeZone.
 */
export const utc = (date: Date) => sql`${date.toISOString()}::timestamp`;

/** The transaction's time as a `timestamp(3)` value in UTC (now() converted, not the session's local time). */
export const NOW_UTC = sql`(now() AT TIME ZONE 'UTC')`;
