/**
 * Bulk reads of the catalog on PostgreSQL straight through `pg`, for the one query where
 * Prisma's per-row and per-byte overhead dominates: loading every product into the search
 * index at start-up (measured: ~10 s through Prisma, ~1 s through pg for 50,000 products).
 */
import pg from 'pg';

export interface BulkReader {
  query<T>(sql: string, params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function pgBulkReader(url: string): BulkReader {
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 10_000 });
  pool.on('error', () => {}); // an idle client's error; the next query reports its own
  return {
    async query<T>(sql: string, params: unknown[]) {
      return (await pool.query(sql, params)).rows as T[];
    },
    close: () => pool.end(),
  };
}
