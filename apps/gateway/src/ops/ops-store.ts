/**
 * The database questions of the operations endpoints: is it there, is its schema
 * current, how far behind is the webhook outbox. The only ops code that touches the database.
 */
import { readdirSync } from 'node:fs';
import type { Database } from '../db/database.js';
import { migrationsDir } from '../db/paths.js';
import { sql } from '../db/statement.js';
import type { OutboxLag } from '../http/metrics.js';

/** The newest committed migration (its directory name), or undefined when there is none. */
export function latestCommittedMigration(dir = migrationsDir): string | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
      .at(-1);
  } catch {
    return undefined;
  }
}

export class OpsStore {
  private readonly latest: string | undefined;

  private readonly prisma: Database['prisma'];
  private readonly sql: Database['sql'];

  constructor(db: Pick<Database, 'prisma' | 'sql'>, latestMigration: string | undefined = latestCommittedMigration()) {
    ({ prisma: this.prisma, sql: this.sql } = db);
    this.latest = latestMigration;
  }

  /** Resolves when the database answers `SELECT 1`. */
  async ping(): Promise<void> {
    await this.sql.query(sql`SELECT 1`);
  }

  /** True when the newest committed migration is recorded as applied (finished, not rolled back). */
  async migrationsApplied(): Promise<boolean> {
    if (!this.latest) return true;
    const [table] = await this.sql.query<{ present: boolean }>(sql`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`);
    if (!table?.present) return false;
    const rows = await this.sql.query(sql`
      SELECT 1 FROM _prisma_migrations WHERE migration_name = ${this.latest} AND finished_at IS NOT NULL AND rolled_back_at IS NULL LIMIT 1`);
    return rows.length > 0;
  }

  /** Pending deliveries already due, and how long the oldest of them has waited. */
  async outboxLag(now = new Date()): Promise<OutboxLag> {
    const due = await this.prisma.webhookDelivery.aggregate({
      where: { state: 'pending', nextAttemptAt: { lte: now } },
      _count: { _all: true },
      _min: { nextAttemptAt: true },
    });
    const oldest = due._min.nextAttemptAt;
    return { due: due._count._all, lagSeconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0 };
  }
}
