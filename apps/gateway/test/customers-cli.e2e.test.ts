/**
 * `customers import|export|show|erase` as an operator runs them: the built CLI in its own process,
 * on the embedded database (or PostgreSQL when TEST_DATABASE_URL is set).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { catalogFile } from './support/fixtures.js';
import { useCliDatabase } from './support/cli-database.js';

const database = useCliDatabase('gw-customers-cli', { merchants: ['cli-cus', 'cli-cus-bad'] });

const RECORDS = [
  { email: 'ada@example.com', name: 'Ada', consent: { marketing: true }, addresses: [{ id: 'ada-home', line1: '12 Main St', city: 'London', postal_code: 'N1 9GU', country: 'GB' }] },
  { email: 'bob@example.com', phone: '+1 555 0100' },
];

describe('customers commands', () => {
  it('import prints one summary line; export writes the records back (stdout or --out) and import takes them again', async () => {
    const imported = await runCli(['customers', 'import', catalogFile(RECORDS, 'customers.ndjson'), '--merchant', 'cli-cus'], database.env());
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toMatch(/^imported 2 customers and 1 address for merchant cli-cus from .*customers\.ndjson\n$/);
    const exported = await runCli(['customers', 'export', '--merchant', 'cli-cus'], database.env());
    expect(exported.code).toBe(0);
    expect(exported.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(RECORDS);
    const file = join(mkdtempSync(join(tmpdir(), 'gw-export-')), 'customers.ndjson');
    const written = await runCli(['customers', 'export', '--merchant', 'cli-cus', '--out', file], database.env());
    expect(written.stdout).toBe(`exported 2 customers of merchant cli-cus to ${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(exported.stdout);
    expect((await runCli(['customers', 'import', file, '--merchant', 'cli-cus'], database.env())).code).toBe(0);
  }, 180_000);

  it('show prints the data-subject export; erase prints what it erased, and then the email is unknown', async () => {
    const shown = await runCli(['customers', 'show', '--email', 'ADA@example.com', '--merchant', 'cli-cus'], database.env());
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      email: 'ada@example.com', customer: { name: 'Ada' }, consent: { marketing: true, analytics: null, sale_of_data: null },
      addresses: [{ id: 'ada-home', line1: '12 Main St', country: 'GB' }], orders: [],
    });
    const erased = await runCli(['customers', 'erase', '--email', 'ada@example.com', '--merchant', 'cli-cus'], database.env());
    expect(erased.stderr).toBe('');
    expect(erased.stdout).toBe('erased ada@example.com from merchant cli-cus: 1 customer, 1 saved address, 0 checkout sessions cleared (0 orders kept with their totals), 0 webhook events scrubbed, 0 stored idempotent responses deleted, 0 discount uses anonymized\n');
    const again = await runCli(['customers', 'erase', '--email', 'ada@example.com', '--merchant', 'cli-cus'], database.env());
    expect(again.code).not.toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr.trim()).toBe('error: merchant cli-cus has no customer, checkout session or discount use of ada@example.com');
    const unknown = await runCli(['customers', 'show', '--email', 'ada@example.com', '--merchant', 'cli-cus'], database.env());
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  }, 180_000);

  it('refuses a bad record with one line naming its line and field, and writes nothing', async () => {
    const file = catalogFile([
      { email: 'fine@example.com' },
      { email: 'bad@example.com', addresses: [{ line1: '1 A St', city: 'B', country: 'US' }, { line1: '1 A St', city: 'B', country: 'XX' }] },
    ], 'bad.ndjson');
    const refused = await runCli(['customers', 'import', file, '--merchant', 'cli-cus-bad'], database.env());
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toBe('error: line 2: addresses[1].country: "XX" is not an ISO 3166-1 country');
    expect((await runCli(['customers', 'export', '--merchant', 'cli-cus-bad'], database.env())).stdout).toBe('');
    const missing = await runCli(['customers', 'import', '/nonexistent.ndjson', '--merchant', 'cli-cus-bad'], database.env());
    expect(missing.stderr.trim()).toBe('error: no file /nonexistent.ndjson');
    const notJson = await runCli(['customers', 'import', catalogFile(['not json'], 'x.ndjson'), '--merchant', 'cli-cus-bad'], database.env());
    expect(notJson.stderr.trim()).toMatch(/^error: line 1: invalid JSON/);
  }, 180_000);
});
