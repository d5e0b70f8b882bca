/**
 * `customers export --out FILE` writes as `catalog export` does (src/kernel/files/replace-file.ts): a
 * private file (0600: it holds buyers' names, emails and addresses), through a temporary file
 * renamed into place — a symlink planted at FILE is replaced, never followed; a directory there
 * is refused in one line. The built CLI in its own process, on a real database.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { useCliDatabase } from './support/cli-database.js';
import { catalogFile } from './support/fixtures.js';

const database = useCliDatabase('gw-customers-file', { merchants: ['file-shop'] });
const RECORDS = [{ email: 'ada@example.com', name: 'Ada', addresses: [{ id: 'ada-home', line1: '12 Main St', city: 'London', postal_code: 'N1 9GU', country: 'GB' }] }];
const EXPORTED = `${RECORDS.map((record) => JSON.stringify(record)).join('\n')}\n`;

const exportTo = (file: string) => runCli(['customers', 'export', '--merchant', 'file-shop', '--out', file], database.env());
const modeOf = (path: string) => lstatSync(path).mode & 0o777;

beforeAll(async () => {
  expect((await runCli(['customers', 'import', catalogFile(RECORDS, 'customers.ndjson'), '--merchant', 'file-shop'], database.env())).code).toBe(0);
}, 240_000);

describe('customers export --out', () => {
  it('replaces a symlink planted at the path with a 0600 file, leaving what it pointed at untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-customers-out-'));
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'gw-customers-elsewhere-')), 'victim.txt');
    writeFileSync(elsewhere, 'not the export\n');
    chmodSync(elsewhere, 0o644);
    const file = join(dir, 'customers.ndjson');
    symlinkSync(elsewhere, file);
    const written = await exportTo(file);
    expect(written.stderr).toBe('');
    expect(written.stdout).toBe(`exported 1 customer of merchant file-shop to ${file}\n`);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not the export\n');
    expect(modeOf(elsewhere)).toBe(0o644);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(modeOf(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(EXPORTED);
    expect(readdirSync(dir)).toEqual(['customers.ndjson']); // no temporary file left
  }, 120_000);

  it('replaces a readable file there with a 0600 one; refuses a directory in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-customers-out-'));
    const file = join(dir, 'customers.ndjson');
    writeFileSync(file, 'an older export\n');
    chmodSync(file, 0o644);
    expect((await exportTo(file)).code).toBe(0);
    expect(modeOf(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(EXPORTED);

    const taken = join(dir, 'taken');
    mkdirSync(taken);
    const refused = await exportTo(taken);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`error: ${taken} exists and is not a file; the export is not written over it\n`);
    expect(readdirSync(dir).sort()).toEqual(['customers.ndjson', 'taken']);
  }, 120_000);
});
