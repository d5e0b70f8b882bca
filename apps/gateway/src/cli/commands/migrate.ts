import type { Command } from 'commander';
import { out } from '../output.js';
import { withDatabase } from '../with-database.js';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply the committed database migrations (every other command does too)')
    .action(async () => {
      await withDatabase(async (db) => {
        // withDatabase has applied them already; report the state.
        const rows = await db.prisma.$queryRaw<{ migration_name: string }[]>`
          SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`;
        out(`database is up to date (${db.kind}): ${rows.length} migration(s) applied, latest ${rows.at(-1)?.migration_name ?? 'none'}`);
      });
    });
}
