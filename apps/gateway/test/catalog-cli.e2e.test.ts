/**
 * `catalog import` and `catalog reindex` as an operator runs them: the built CLI in its own
 * process, on the embedded database (or PostgreSQL when TEST_DATABASE_URL is set).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { catalogFile, product } from './support/fixtures.js';
import { useCliDatabase } from './support/cli-database.js';

const database = useCliDatabase('gw-catalog-cli', { merchants: ['cli-search', 'cli-huge', 'cli-broken'] });

describe('catalog commands', () => {
  it('import prints one summary line; reindex rebuilds from the stored vectors, embedding nothing', async () => {
    const file = catalogFile([product({ id: 'a', title: 'Oak chair' }), product({ id: 'b', title: 'Travel mug' })]);
    const imported = await runCli(['catalog', 'import', file, '--merchant', 'cli-search'], database.env());
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^imported 2 products for merchant cli-search from .* in [\d.]+ s\n$/);
    expect(imported.stderr).toBe('');

    const all = await runCli(['catalog', 'reindex'], database.env());
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^reindexed \d+ products of \d+ merchants? \(0 embedded now, the rest from stored vectors; 0 without vectors\) in [\d.]+ s\n$/);

    const one = await runCli(['catalog', 'reindex', '--merchant', 'cli-search'], database.env());
    expect(one.stdout).toMatch(/^reindexed 2 products of 1 merchant \(0 embedded now/);
  }, 180_000);

  it('import refuses a price past the contract\'s bound with one line naming its line number, and writes nothing', async () => {
    const file = catalogFile([product({ id: 'fine' }), product({ id: 'huge', price: 1e21 })]);
    const refused = await runCli(['catalog', 'import', file, '--merchant', 'cli-huge'], database.env());
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toMatch(/^[^\n]*line 2: price must be at most 100000000000 \(10\^11\)[^\n]*$/);
    const reindexed = await runCli(['catalog', 'reindex', '--merchant', 'cli-huge'], database.env());
    expect(reindexed.stdout).toMatch(/^reindexed 0 products/);
  }, 180_000);

  it('import with an unreachable embedding endpoint still imports, warns, and reindex embeds later', async () => {
    const file = catalogFile([product({ id: 'c', title: 'Desk lamp' })]);
    const broken = { ...database.env(), EMBEDDER: 'openai', EMBEDDER_URL: 'http://127.0.0.1:1/v1/embeddings', EMBEDDER_DIMENSIONS: '100' };
    const imported = await runCli(['catalog', 'import', file, '--merchant', 'cli-broken'], broken);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/^warning: 1 products have no search vector \(embedding endpoint .* unreachable/);
    const reindexed = await runCli(['catalog', 'reindex', '--merchant', 'cli-broken'], database.env());
    expect(reindexed.stdout).toMatch(/^reindexed 1 products of 1 merchant \(1 embedded now/);
  }, 180_000);
});
