/**
 * What a statement and a transaction cost the client's CPU through Prisma and through `pg`, on
 * the same PostgreSQL, in the same run, in alternating rounds: why checkout's transactions run on
 * the driver (apps/gateway/src/db/sql.ts) rather than Prisma's interactive transactions.
 *
 *   TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npx tsx bench/checkout/driver.ts
 */
import { createRequire } from 'node:module';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import type { PgModule } from './baseline.js';

const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!url) {
  console.error('Set TEST_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server.');
  process.exit(1);
}
const pg = createRequire(new URL('../../apps/gateway/package.json', import.meta.url))('pg') as PgModule;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const OPS = Number(process.env.OPS ?? 2000);
const CONCURRENCY = 8;

const db = await openDatabase({ url });
const pool = new pg.Pool({ connectionString: url, max: 10 });
const cases: [string, () => Promise<unknown>][] = [
  ['one statement, pg', () => pool.query('SELECT $1::int AS x', [1])],
  ['one statement, Prisma $queryRaw', () => db.prisma.$queryRaw`SELECT ${1}::int AS x`],
  ['BEGIN, 3 statements, COMMIT, pg', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (let i = 0; i < 3; i++) await client.query('SELECT $1::int AS x', [i]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }],
  ['the same, Prisma $transaction', () => db.prisma.$transaction(async (tx) => {
    for (let i = 0; i < 3; i++) await tx.$queryRaw`SELECT ${i}::int AS x`;
  })],
];

/** CPU µs of this process per operation, `CONCURRENCY` at a time. */
async function cpuPerOp(work: () => Promise<unknown>, ops: number): Promise<number> {
  const before = process.cpuUsage();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < ops) await work();
  }));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / ops;
}

const results = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (const [, work] of cases) await cpuPerOp(work, 300); // warm-up
for (let round = 0; round < ROUNDS; round++) for (const [name, work] of cases) results.get(name)!.push(await cpuPerOp(work, OPS));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`client CPU per operation (median of ${ROUNDS} alternating rounds of ${OPS}, ${CONCURRENCY} at a time)`);
for (const [name, values] of results) console.log(`${name.padEnd(36)} ${median(values).toFixed(0).padStart(6)} µs`);
await pool.end();
await db.close();
