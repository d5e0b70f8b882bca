/**
 * Prisma's PostgreSQL driver adapter for applying migrations, except that a migration script is
 * sent whole. The adapter's own executeScript splits a script at every semicolon and sends the
 * pieces one by one, which cuts a function body (dollar-quoted PL/pgSQL, as the catalog_versions
 * triggers have) in pieces; PostgreSQL runs a whole script sent as one simple query, in one
 * implicit transaction. (PGlite's adapter sends scripts whole already.)
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

export function wholeScriptPg(pool: pg.Pool): PrismaPg {
  const factory = new PrismaPg(pool);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const onError = (adapter as unknown as { onError?: (error: unknown) => never }).onError?.bind(adapter);
    adapter.executeScript = async (script: string) => {
      try {
        await pool.query(script);
      } catch (error) {
        if (onError) onError(error);
        throw error;
      }
    };
    return adapter;
  };
  return factory;
}
