/**
 * Self-contained tool input schemas from the official documents, as MCP clients need them (ACP's
 * mcp-binding.md: "resolve and bundle all `$ref` targets before serving tool schemas"):
 * - ACP: one document's `$defs`, pruned to what the payload's definition reaches;
 * - UCP: a JSON Schema 2020-12 compound document — every schema file the payload reaches,
 *   embedded whole under `$defs` with its own `$id`, so its relative `$ref`s resolve unchanged.
 *
 *   const { ref, defs } = acpBundle(acpDefs, 'CheckoutSessionCreateRequest');
 *   const { ref, defs } = ucpBundle(schemaFiles(join(ucpSchemaDir(version), 'schemas')), 'https://ucp.dev/schemas/shopping/checkout.json');
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Bundle {
  /** The `$ref` that names the payload's schema inside the bundle. */
  ref: string;
  /** What goes under the tool schema's `$defs`. */
  defs: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** Every `$ref` string in `node`. */
function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

/** ACP: `name` and every `#/$defs/…` it reaches in `defs`. */
export function acpBundle(defs: Json, name: string): Bundle {
  const kept: Json = {};
  const queue = [name];
  while (queue.length) {
    const next = queue.pop()!;
    if (next in kept) continue;
    if (!(next in defs)) throw new Error(`ACP schema has no $defs/${next}`);
    kept[next] = defs[next];
    for (const ref of refsIn(defs[next])) {
      const local = /^#\/\$defs\/([^/]+)/.exec(ref);
      if (local) queue.push(local[1]!);
    }
  }
  return { ref: `#/$defs/${name}`, defs: kept };
}

/** The JSON Schema files under `dir`, by `$id`. */
export function schemaFiles(dir: string): Map<string, Json> {
  const files = new Map<string, Json>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.json')) {
        const schema = JSON.parse(readFileSync(path, 'utf8')) as Json;
        if (typeof schema.$id === 'string') files.set(schema.$id, schema);
      }
    }
  };
  walk(dir);
  return files;
}

/** UCP: the file of `ref` (an absolute `$id`, maybe with a fragment) and every file it reaches, embedded by `$id`. */
export function ucpBundle(files: Map<string, Json>, ref: string): Bundle {
  const defs: Json = {};
  const queue = [ref.split('#')[0]!];
  while (queue.length) {
    const id = queue.pop()!;
    if (id in defs) continue;
    const schema = files.get(id);
    if (!schema) throw new Error(`UCP schema ${id} is not among the vendored files`);
    defs[id] = schema;
    for (const found of refsIn(schema)) {
      if (found.startsWith('#')) continue;
      queue.push(new URL(found, id).href.split('#')[0]!);
    }
  }
  return { ref, defs };
}
