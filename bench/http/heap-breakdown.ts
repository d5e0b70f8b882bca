/**
 * bench/http heap breakdown: what the catalog's memory is made of. Loads a merchant's catalog as
 * `serve` does (read model and search index, from the database of DATABASE_URL or DATA_DIR — e.g.
 * the one `bench:http:memory` left with BENCH_DATA_DIR), writes a V8 heap snapshot and prints the
 * heap by kind of object (self sizes summed by constructor, strings, arrays, compiled code), the
 * typed arrays' backing stores outside the heap, and the resident memory.
 *
 *   DATA_DIR=/tmp/bench50k pnpm --filter @commerce-gateway/bench exec tsx --expose-gc http/heap-breakdown.ts
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import pino from 'pino';
import { loadConfig } from '../../apps/gateway/src/config/config.js';
import { openDatabase } from '../../apps/gateway/src/db/database.js';
import { buildServices } from '../../apps/gateway/src/services.js';

const MB = 1e6;
const settle = () => {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage();
};

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self sizes summed by what each node is: an object's constructor, or the kind of a non-object. */
function breakdown(file: string): [string, number, number][] {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const totals = new Map<string, [number, number]>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = snap.strings[snap.nodes[i + nameAt]!]!;
    const key = type === 'object' || type === 'closure' ? `${type === 'closure' ? 'closure ' : ''}${name}` : type.includes('string') ? '(strings)' : `(${type})`;
    const entry = totals.get(key) ?? [0, 0];
    entry[0] += snap.nodes[i + sizeAt]!;
    entry[1] += 1;
    totals.set(key, entry);
  }
  return [...totals].map(([key, [bytes, count]]) => [key, bytes, count] as [string, number, number]).sort((a, b) => b[1] - a[1]);
}

const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
const services = buildServices(db, { config, logger: pino({ level: 'warn' }) });
const base = settle();
const stats = await services.catalog.warmUp();
const loaded = settle();
const file = writeHeapSnapshot(join(tmpdir(), `catalog-${process.pid}.heapsnapshot`));
const rows = breakdown(file);
rmSync(file, { force: true });
const heap = rows.reduce((sum, [, bytes]) => sum + bytes, 0);
console.log(`bench/http heap breakdown — ${JSON.stringify(stats)}`);
console.log(`RSS ${(loaded.rss / MB).toFixed(0)} MB (+${((loaded.rss - base.rss) / MB).toFixed(0)} MB for the catalog); heap used ${(loaded.heapUsed / MB).toFixed(0)} MB (+${((loaded.heapUsed - base.heapUsed) / MB).toFixed(0)}); typed arrays' backing stores ${(loaded.arrayBuffers / MB).toFixed(0)} MB (+${((loaded.arrayBuffers - base.arrayBuffers) / MB).toFixed(0)}); external ${(loaded.external / MB).toFixed(0)} MB`);
console.log(`heap snapshot ${(heap / MB).toFixed(0)} MB, by kind (self sizes):`);
for (const [key, bytes, count] of rows.slice(0, 25)) console.log(`  ${(bytes / MB).toFixed(1).padStart(7)} MB  ${((100 * bytes) / heap).toFixed(1).padStart(5)} %  ${String(count).padStart(9)}  ${key}`);
await services.catalog.close();
await db.close();
