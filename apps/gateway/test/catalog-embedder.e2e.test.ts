/**
 * An OpenAI-compatible embedder that says 429: the CLI retries (honouring Retry-After), says
 * plainly how many products are left without vectors when it still fails, `/readyz` reports
 * search `degraded` (still ready: keyword search finds every product), and `catalog reindex`
 * embeds exactly the missing ones. A real local HTTP server plays the embedder; the built CLI
 * runs `catalog import`, `catalog reindex` and `serve` in their own processes.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, runCli, startServe } from './support/cli.js';
import { catalogFile, product } from './support/fixtures.js';
import { call } from './support/http.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let env: Record<string, string | undefined>;
let embedder: Server;
/** down: every request 429 (Retry-After: 0); throttle-once: the first 429 (Retry-After: 1), then answers; ok: answers. */
let mode: 'down' | 'throttle-once' | 'ok' = 'down';
let requests: number[] = [];

beforeAll(async () => {
  embedder = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const { input } = JSON.parse(text) as { input: string[] };
    if (mode === 'down' || (mode === 'throttle-once' && !requests.includes(429))) {
      requests.push(429);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': mode === 'down' ? '0' : '1' }).end('{"error":{"message":"slow down"}}');
      return;
    }
    requests.push(200);
    const data = input.map((t, index) => ({ index, embedding: Array.from({ length: 8 }, (_, i) => ((t.charCodeAt(i % t.length) || 1) % 7) + i) }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  const embedderUrl = `http://127.0.0.1:${(embedder.address() as { port: number }).port}/v1/embeddings`;
  db = await createTestDatabase();
  const where = db.url ? { DATABASE_URL: db.url } : { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-embedder-')), DATABASE_URL: undefined };
  if (!db.url) await db.close();
  env = { ...where, EMBEDDER: 'openai', EMBEDDER_URL: embedderUrl, EMBEDDER_DIMENSIONS: '8', HOST: '127.0.0.1', PORT: '0' };
});
afterAll(async () => {
  await new Promise<void>((resolve) => embedder?.close(() => resolve()));
  if (db?.url) await db.close();
});

async function readyz(): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const served = await startServe(env);
  try {
    return await call(`${served.url}/readyz`);
  } finally {
    served.child.kill('SIGTERM');
    await exitOf(served.child);
  }
}

describe('an embedder that answers 429', () => {
  it('import still succeeds and says how many products lack vectors; /readyz says search is degraded but ready', async () => {
    mode = 'down';
    requests = [];
    const file = catalogFile(['a', 'b', 'c'].map((id) => product({ id, title: `Oak chair ${id}` })));
    expect((await runCli(['merchants', 'create', 'throttled'], env)).code).toBe(0);
    const imported = await runCli(['catalog', 'import', file, '--merchant', 'throttled'], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/^warning: 3 products have no search vector \(embedding endpoint .* answered 429.*after 5 attempts\)/);
    expect(requests).toEqual([429, 429, 429, 429, 429]); // retried, then given up

    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', search: 'degraded', catalog: 'ok' },
      details: { search: '3 products without vectors' },
    });

    const failed = await runCli(['catalog', 'reindex'], env);
    expect(failed.code).toBe(0);
    expect(failed.stderr).toMatch(/^warning: 3 products still have no search vector \(embedding endpoint .* answered 429/);
    expect(failed.stdout).toMatch(/\(0 embedded now, the rest from stored vectors; 3 without vectors\)/);
  }, 240_000);

  it('reindex waits out a 429 (Retry-After) and embeds exactly the missing products, once', async () => {
    mode = 'throttle-once';
    requests = [];
    const reindexed = await runCli(['catalog', 'reindex'], env);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(reindexed.stderr).toBe('');
    expect(reindexed.stdout).toMatch(/^reindexed 3 products of 1 merchant \(3 embedded now, the rest from stored vectors; 0 without vectors\)/);
    expect(requests).toEqual([429, 200]);

    mode = 'ok';
    requests = [];
    const again = await runCli(['catalog', 'reindex'], env);
    expect(again.stdout).toMatch(/\(0 embedded now, the rest from stored vectors; 0 without vectors\)/);
    expect(requests).toEqual([]); // nothing missing: the embedder is not asked

    const ready = await readyz();
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', search: 'ok', catalog: 'ok' } });
  }, 240_000);
});
