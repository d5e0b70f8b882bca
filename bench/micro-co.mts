import pino from 'pino';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../apps/gateway/src/config/config.js';
import { openDatabase } from '../apps/gateway/src/db/database.js';
import { buildServices } from '../apps/gateway/src/services.js';
import { importCatalog } from '../apps/gateway/src/catalog/import/catalog-importer.js';
import { completeSession, createSession } from './checkout/baseline.js';
import { writeFileSync, mkdtempSync } from 'node:fs'; import { join } from 'node:path'; import { tmpdir } from 'node:os';
const pg = createRequire(new URL('../apps/gateway/package.json', import.meta.url))('pg');
const admin = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/test' }); await admin.connect();
const name = `gw_micro_${randomBytes(4).toString('hex')}`; await admin.query(`CREATE DATABASE ${name}`);
const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
const db = await openDatabase({ url }); await db.migrate();
const config = loadConfig({ ...process.env, GATEWAY_ENV: 'production', LOG_LEVEL: 'info', DATABASE_URL: url });
const services = buildServices(db, { config: { ...config, databaseUrl: url }, logger: pino({ level: 'silent' }) });
const file = join(mkdtempSync(join(tmpdir(), 'm-')), 'c.ndjson');
writeFileSync(file, Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: `h-${i}`, title: `P ${i}`, price: 9.99, currency: 'USD', availability: { status: 'in_stock', quantity: 1e9, policy: 'deny' }, variants: [{ sku: `h-${i}-v`, title: 'D', price: 9.99, currency: 'USD', attributes: {}, inventory: { status: 'in_stock', quantity: 1e9, policy: 'deny' } }] })).join('\n'));
await importCatalog(db.prisma, 'm', file); await importCatalog(db.prisma, 's', file.replace('c.ndjson','c.ndjson'));
await services.catalog.warmUp();
const pool = new pg.Pool({ connectionString: url, max: 10 });
const address = { name: 'A', line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const co = services.checkout;
const viaService = async () => { const s = await co.create('m', { items: [{ product_id: `h-${(Math.random()*200)|0}`, quantity: 1 }, { product_id: `h-${(Math.random()*200)|0}`, quantity: 2 }], shipping_address: address } as never); await co.complete('m', s.id); };
const viaSql = async () => { const id = await createSession(pool, 's', [{ productId: `h-${(Math.random()*200)|0}`, quantity: 1 }, { productId: `h-${(Math.random()*200)|0}`, quantity: 2 }]); await completeSession(pool, 's', id); };
async function run(f: () => Promise<void>, n: number) { const c0 = process.cpuUsage(); const t0 = performance.now(); let next = 0; await Promise.all(Array.from({ length: 8 }, async () => { while (next++ < n) await f(); })); const c = process.cpuUsage(c0); return { ms: (performance.now() - t0) / n, cpu: (c.user + c.system) / 1000 / n }; }
for (let r = 0; r < (process.env.ONLY ? 1 : 3); r++) for (const [k, f] of (process.env.ONLY ? [['service', viaService]] : [['service', viaService], ['sql', viaSql]]) as const) { const x = await run(f, process.env.ONLY ? 3000 : 400); console.log(k, 'cpu ms/checkout', x.cpu.toFixed(2), 'wall', x.ms.toFixed(2)); }
await pool.end(); await services.catalog.close?.(); await db.close(); await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); await admin.end(); process.exit(0);
