/**
 * `discounts import` and `discounts export` as an operator runs them: the built CLI in its own
 * process, on the embedded database (or PostgreSQL when TEST_DATABASE_URL is set).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { catalogFile } from './support/fixtures.js';
import { useCliDatabase } from './support/cli-database.js';

const database = useCliDatabase('gw-discounts-cli', { merchants: ['cli-disc', 'cli-disc-bad'] });

describe('discounts commands', () => {
  it('import prints one summary line, export prints the records back, and import takes that output again', async () => {
    const records = [
      { type: 'code', code: 'WELCOME', kind: 'percentage', percentage: 10, per_customer_limit: 1 },
      { type: 'promotion', id: 'ship-free', kind: 'free_shipping', minimum_subtotal: { USD: 50 } },
    ];
    const imported = await runCli(['discounts', 'import', catalogFile(records, 'discounts.ndjson'), '--merchant', 'cli-disc'], database.env());
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toMatch(/^imported 1 code and 1 promotion for merchant cli-disc from .*discounts\.ndjson\n$/);
    const exported = await runCli(['discounts', 'export', '--merchant', 'cli-disc'], database.env());
    expect(exported.code).toBe(0);
    expect(exported.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(records);
    const file = join(mkdtempSync(join(tmpdir(), 'gw-export-')), 'export.ndjson');
    writeFileSync(file, exported.stdout);
    expect((await runCli(['discounts', 'import', file, '--merchant', 'cli-disc'], database.env())).code).toBe(0);
  }, 180_000);

  it('remove takes out one code (any case) or one promotion, refusing what is not there or an unclear request', async () => {
    const remove = (...args: string[]) => runCli(['discounts', 'remove', '--merchant', 'cli-disc', ...args], database.env());
    expect(await remove('--code', 'welcome')).toMatchObject({ code: 0, stdout: 'removed code "welcome" of merchant cli-disc\n' });
    const json = await runCli(['discounts', 'remove', '--merchant', 'cli-disc', '--promotion', 'ship-free', '--json'], database.env());
    expect(JSON.parse(json.stdout)).toEqual({ merchant: 'cli-disc', removed: { type: 'promotion', id: 'ship-free', kind: 'free_shipping', minimum_subtotal: { USD: 50 } } });
    expect((await runCli(['discounts', 'export', '--merchant', 'cli-disc'], database.env())).stdout).toBe('');
    const again = await remove('--code', 'WELCOME');
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim()).toBe('error: merchant cli-disc has no code "WELCOME"');
    const both = await remove('--code', 'X', '--promotion', 'Y');
    expect(both.stderr.trim()).toMatch(/^error: name what to remove: --code CODE or --promotion ID/);
  }, 180_000);

  it('refuses a bad record with one line naming its line and field, and writes nothing', async () => {
    const file = catalogFile([
      { type: 'code', code: 'FINE', kind: 'percentage', percentage: 10 },
      { type: 'code', code: 'LATE', kind: 'percentage', percentage: 10, starts_at: '2027-01-01T00:00:00Z', ends_at: '2026-01-01T00:00:00Z' },
    ], 'bad.ndjson');
    const refused = await runCli(['discounts', 'import', file, '--merchant', 'cli-disc-bad'], database.env());
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toMatch(/^[^\n]*line 2: ends_at: must be after starts_at$/);
    const exported = await runCli(['discounts', 'export', '--merchant', 'cli-disc-bad'], database.env());
    expect(exported.stdout).toBe('');
    const missing = await runCli(['discounts', 'import', '/nonexistent.ndjson', '--merchant', 'cli-disc-bad'], database.env());
    expect(missing.stderr.trim()).toMatch(/^[^\n]*no file \/nonexistent\.ndjson$/);
  }, 180_000);
});
