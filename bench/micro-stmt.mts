import { createRequire } from 'node:module';
import { openDatabase } from '../apps/gateway/src/db/database.js';
const pg = createRequire(new URL('../apps/gateway/package.json', import.meta.url))('pg');
const url = 'postgresql://postgres@127.0.0.1:5432/test';
const db = await openDatabase({ url });
const pool = new pg.Pool({ connectionString: url, max: 10 });
const cases: [string, () => Promise<unknown>][] = [
  ['pg pool.query SELECT $1', () => pool.query('SELECT $1::int AS x', [1])],
  ['prisma $queryRaw SELECT', () => db.prisma.$queryRaw`SELECT ${1}::int AS x`],
  ['pg tx: BEGIN, 3 selects, COMMIT', async () => { const c = await pool.connect(); try { await c.query('BEGIN'); for (let i = 0; i < 3; i++) await c.query('SELECT $1::int AS x', [i]); await c.query('COMMIT'); } finally { c.release(); } }],
  ['prisma $transaction: 3 selects', () => db.prisma.$transaction(async (tx) => { for (let i = 0; i < 3; i++) await tx.$queryRaw`SELECT ${i}::int AS x`; })],
];
async function run(f: () => Promise<unknown>, n: number) { const c0 = process.cpuUsage(); const t0 = performance.now(); let next = 0; await Promise.all(Array.from({ length: 8 }, async () => { while (next++ < n) await f(); })); const c = process.cpuUsage(c0); return { us: (c.user + c.system) / n, sys: c.system / n, wall: (performance.now() - t0) * 1000 / n }; }
for (let r = 0; r < 2; r++) for (const [k, f] of cases) { await run(f, 300); const x = await run(f, 2000); console.log(k.padEnd(34), 'cpu µs/op', x.us.toFixed(0).padStart(5), ' sys', x.sys.toFixed(0).padStart(4), ' wall µs/op', x.wall.toFixed(0)); }
await pool.end(); await db.close(); process.exit(0);
