/**
 * bench:import — `catalog import` before and after it was made faster, in the same run: the
 * machine is shared and noisy, so only the ratio of rounds taken alternately means anything.
 * Each round imports the same synthesized catalog (BENCH_PRODUCTS, default 200,000) once with
 * the previous importer (a frozen copy under previous-import/, so that no checkout or second
 * build is needed and the comparison survives later commits) and once with the current one,
 * the order alternating between rounds, each into a database of its own made for it and
 * dropped after: on the server of DATABASE_URL (a new database beside the URL's), else embedded
 * PGlite in a temporary data directory. Migrations are not timed; the import is, from the
 * call to its return (validation, embedding with the local embedder, writing, announcing).
 * Beside wall time it prints CPU time (this process, plus on a local PostgreSQL the server
 * processes of the round's database, read from /proc): on a machine shared with other work
 * it moves much less than wall time.
 *
 *   pnpm --filter @commerce-gateway/bench bench:import
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres BENCH_PRODUCTS=50000 BENCH_ROUNDS=3 …
 *   BENCH_ONLY=current …   # only the current importer (e.g. for 1,000,000 products)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { importCatalog } from '../../apps/gateway/src/catalog/import/catalog-importer.js';
import { openDatabase, type Database } from '../../apps/gateway/src/db/database.js';
import { sql } from '../../apps/gateway/src/db/statement.js';
import { sharedLocalEmbedder } from '../../apps/gateway/src/search/embedders/local/local-embedder.js';
import { importCatalog as previousImportCatalog } from './previous-import/catalog-importer.js';
import { synthesize } from './synthesize.js';

const count = Number(process.env.BENCH_PRODUCTS ?? 200_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const only = process.env.BENCH_ONLY;
const url = process.env.DATABASE_URL;
const here = fileURLToPath(new URL('.', import.meta.url));
const file = await synthesize(count, resolve(here, 'results', `catalog-${count}.ndjson`));

// The gateway's own PostgreSQL client, for creating and dropping the rounds' databases.
const pg = createRequire(resolve(here, '../../apps/gateway/package.json'))('pg') as typeof import('pg');

const importers = { previous: previousImportCatalog, current: importCatalog } as const;
type Kind = keyof typeof importers;

/** CPU seconds a process has used so far (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds used by the PostgreSQL server processes serving `db` (when the server runs on this machine). */
async function serverCpuSeconds(db: Database): Promise<number> {
  const rows = await db.sql.query<{ pid: number }>(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  return rows.reduce((sum, row) => sum + cpuSeconds(row.pid), 0);
}

/** A database of its own for one import: created, migrated, and dropped by `dispose`. */
async function freshDatabase(name: string): Promise<{ db: Database; dispose: () => Promise<void> }> {
  if (!url) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-import-'));
    const db = await openDatabase({ dataDir });
    await db.migrate();
    return { db, dispose: async () => (await db.close(), rmSync(dataDir, { recursive: true, force: true })) };
  }
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ url: target.toString() });
  await db.migrate();
  return { db, dispose: async () => (await db.close(), await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

interface Timing {
  seconds: number;
  /** CPU seconds of this process and (on PostgreSQL) of the server's processes for the import: less moved by other load than wall time. */
  cpu: number;
  serverCpu: number;
}

async function timeImport(kind: Kind): Promise<Timing> {
  const { db, dispose } = await freshDatabase(`bench_import_${kind}_${process.pid}`);
  try {
    const serverBefore = url ? await serverCpuSeconds(db) : 0;
    const ownBefore = process.cpuUsage();
    const started = performance.now();
    const { imported } = await importers[kind](db, `bench-${kind}`, file);
    const seconds = (performance.now() - started) / 1000;
    const own = process.cpuUsage(ownBefore);
    const server = url ? (await serverCpuSeconds(db)) - serverBefore : 0;
    if (imported !== count) throw new Error(`${kind}: imported ${imported} of ${count}`);
    return { seconds, cpu: (own.user + own.system) / 1e6 + server, serverCpu: server };
  } finally {
    await dispose();
  }
}

sharedLocalEmbedder(); // loaded once, outside every timing
console.log(`bench:import — ${count} products, ${url ? 'PostgreSQL' : 'PGlite (embedded)'}, ${rounds} rounds`);
const times: Record<Kind, number[]> = { previous: [], current: [] };
const cpus: Record<Kind, number[]> = { previous: [], current: [] };
for (let round = 0; round < rounds; round++) {
  const order: Kind[] = only ? [only as Kind] : round % 2 === 0 ? ['previous', 'current'] : ['current', 'previous'];
  for (const kind of order) {
    const { seconds, cpu, serverCpu } = await timeImport(kind);
    times[kind].push(seconds);
    cpus[kind].push(cpu);
    console.log(`round ${round + 1}  ${kind.padEnd(8)} ${seconds.toFixed(1)} s  (CPU ${cpu.toFixed(1)} s${url ? `, of which PostgreSQL ${serverCpu.toFixed(1)} s` : ''})`);
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
for (const kind of ['previous', 'current'] as const) {
  if (times[kind].length) console.log(`${kind.padEnd(8)} median ${median(times[kind]).toFixed(1)} s  (${times[kind].map((s) => s.toFixed(1)).join(', ')})`);
}
if (times.previous.length && times.current.length) {
  const perRound = times.current.map((s, i) => s / times.previous[i]!);
  console.log(`current / previous: ${median(perRound).toFixed(2)}× the time (median of rounds; each round ${perRound.map((r) => r.toFixed(2)).join(', ')})`);
  const cpuPerRound = cpus.current.map((s, i) => s / cpus.previous[i]!);
  console.log(`current / previous: ${median(cpuPerRound).toFixed(2)}× the CPU time (this process${url ? ' + the PostgreSQL server' : ''}; each round ${cpuPerRound.map((r) => r.toFixed(2)).join(', ')})`);
}
