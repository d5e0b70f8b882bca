/**
 * Prisma's schema engine, compiled to WASM, driven through a driver adapter.
 * Prisma's CLI would download a native engine first; this needs no download,
 * and records `_prisma_migrations` exactly as `prisma migrate deploy` does.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

/** The slice of the WebAssembly global used here (its types live in lib.dom, which a server does not load). */
const { WebAssembly } = globalThis as unknown as {
  WebAssembly: { instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: unknown } }> };
};

let loaded: Promise<EngineModule> | undefined;

/** Node 20 cannot import a .wasm module; instantiate it by hand, once. */
function loadEngineModule(): Promise<EngineModule> {
  loaded ??= (async () => {
    const bindings = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg')
      .replace(/schema_engine_bg\.js$/, 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      './schema_engine_bg.js': bindings,
    });
    const exports = instance.exports as unknown as { __wbindgen_start(): void };
    bindings.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return bindings;
  })();
  return loaded;
}

export async function openSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  schema: { path: string; content: string },
): Promise<SchemaEngine> {
  const { SchemaEngine } = await loadEngineModule();
  const log = () => {};
  return SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    log,
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}

export const noFilters = { externalTables: [], externalEnums: [] };
