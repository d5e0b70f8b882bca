import type { Command } from 'commander';
import { out, result } from '../output.js';
import { withDatabase } from '../with-database.js';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply the committed database migrations (every other command does too)')
    .action(async () => {
      await withDatabase(async (db) => {
        // withDatabase has applied them already; report the state.
        const applied = await db.appliedMigrations();
        result({ kind: db.kind, migrations: applied.length, latest: applied.at(-1) ?? null }, () => out(`database is up to date (${db.kind}): ${applied.length} migration(s) applied, latest ${applied.at(-1) ?? 'none'}`));
      });
    });
}
