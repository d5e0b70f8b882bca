/**
 * The boundaries `pnpm lint` enforces (.dependency-cruiser.cjs): a small tree that keeps every rule
 * passes, and the same tree with one violation of each rule planted fails, naming each rule.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const gateway = join(dirname(fileURLToPath(import.meta.url)), '..');
const depcruise = join(gateway, 'node_modules', '.bin', 'depcruise');
const run = promisify(execFile);

/** A tree that keeps every rule: settings, a store on the driver, a service, our API's handlers on Express, an edge over the domain, the composition root and the CLI over it. */
const lawful: Record<string, string> = {
  'src/config/config.ts': "export const port = 8080;\n",
  'src/kernel/money.ts': "import { port } from '../config/config.js';\nexport const minor = (amount: number) => Math.round(amount * 100) + port * 0;\n",
  'src/checkout/checkout-store.ts': "import type pg from 'pg';\nexport type Pool = pg.Pool;\n",
  'src/checkout/checkout-service.ts': "import { minor } from '../kernel/money.js';\nimport type { Pool } from './checkout-store.js';\nexport const service = (pool: Pool) => [pool, minor(1)];\n",
  'src/discounts/apply-discounts.ts': "import { minor } from '../kernel/money.js';\nexport interface PricedCart { subtotal: number }\nexport const off = (cart: PricedCart) => minor(cart.subtotal / 10);\n",
  'src/api/checkout-operations.ts': "import type { Request } from 'express';\nimport { service } from '../checkout/checkout-service.js';\nexport const handle = (req: Request) => [req, service];\n",
  'src/http/compose.ts': "import type { RequestHandler } from 'express';\nexport type Handlers = RequestHandler[];\n",
  'src/acp/handlers.ts': "import type { Handlers } from '../http/compose.js';\nimport { service } from '../checkout/checkout-service.js';\nexport const acp = (handlers: Handlers) => [handlers, service];\n",
  'src/app.ts': "import { handle } from './api/checkout-operations.js';\nimport { acp } from './acp/handlers.js';\nexport const app = [handle, acp];\n",
  'src/cli/serve.ts': "import { app } from '../app.js';\nexport const serve = () => app;\n",
};

/** One violation of each rule, by the rule's name (and how many times the linter reports it). */
const planted: Record<string, Record<string, string>> = {
  'no-cycles': {
    'src/catalog/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
    'src/catalog/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
  },
  'database-only-in-db-and-stores': { 'src/orders/order-service.ts': "import pg from 'pg';\nexport const pool = new pg.Pool();\n" },
  'config-imports-only-below': { 'src/config/settings.ts': "import { minor } from '../kernel/money.js';\nexport const s = minor;\n" },
  'kernel-imports-only-below': { 'src/kernel/total.ts': "import { service } from '../checkout/checkout-service.js';\nexport const s = service;\n" },
  'discounts-imports-only-below': { 'src/discounts/cart-of.ts': "import { service } from '../checkout/checkout-service.js';\nexport const s = service;\n" },
  'services-know-no-express': { 'src/webhooks/emit-service.ts': "import type { Response } from 'express';\nexport type R = Response;\n" },
  'acp-imports-only-below': { 'src/acp/complete.ts': "import { handle } from '../api/checkout-operations.js';\nexport const h = handle;\n" },
  'ucp-imports-only-below': { 'src/ucp/discovery.ts': "import { acp } from '../acp/handlers.js';\nexport const a = acp;\n" },
  'api-imports-only-below': { 'src/api/catalog-operations.ts': "import { acp } from '../acp/handlers.js';\nexport const a = acp;\n" },
  'composition-root-only-from-the-cli': { 'src/orders/boot.ts': "import { app } from '../app.js';\nexport const a = app;\n" },
  'every-folder-has-a-place': { 'src/misc/thing.ts': "import { port } from '../config/config.js';\nexport const p = port;\n" },
};
/** Two subfolders that import each other (no module imports itself back): reported once from each folder. */
const folderLoop: Record<string, string> = {
  'src/catalog/feed/feed.ts': "import { read } from '../import/reader.js';\nexport const feed = read;\n",
  'src/catalog/import/reader.ts': "export const read = () => 1;\n",
  'src/catalog/import/importer.ts': "import { feed } from '../feed/feed.js';\nexport const imported = feed;\n",
};

const trees: string[] = [];
afterAll(() => Promise.all(trees.map((tree) => rm(tree, { recursive: true, force: true }))));

/** Writes `files` into a fresh tree beside the gateway's (so packages resolve) and lints it with the gateway's rules. */
async function lint(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const tree = await mkdtemp(join(gateway, '.boundaries-'));
  trees.push(tree);
  await writeFile(join(tree, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['src'] }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(tree, path)), { recursive: true });
    await writeFile(join(tree, path), text);
  }
  try {
    const { stdout } = await run(depcruise, ['src', '--config', join(gateway, '.dependency-cruiser.cjs')], { cwd: tree });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('the boundaries pnpm lint enforces', () => {
  it('passes a tree that keeps them', async () => {
    const { code, output } = await lint(lawful);
    expect(output).toMatch(/no dependency violations found \(\d+ modules/);
    expect(code).toBe(0);
  });

  it('fails on a violation of each rule, naming it', async () => {
    const { code, output } = await lint(Object.assign({}, lawful, ...Object.values(planted)));
    expect(code).not.toBe(0);
    // Several planted imports also close loops between folders: those are counted by the next test.
    for (const rule of Object.keys(planted)) expect(output.split(`error ${rule}:`).length - 1, rule).toBe(1);
  });

  it('fails on a loop between folders, naming both', async () => {
    const { code, output } = await lint({ ...lawful, ...folderLoop });
    expect(code).not.toBe(0);
    expect(output).toContain('error no-folder-cycles: src/catalog/feed');
    expect(output).toContain('error no-folder-cycles: src/catalog/import');
    expect(output).toContain('2 dependency violations');
  });
});
