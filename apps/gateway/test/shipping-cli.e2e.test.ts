/**
 * `gateway shipping import FILE --merchant ID` and `shipping export` through the built CLI, on an
 * embedded database of its own: a good profile round-trips; a bad one is refused with one line
 * naming the field, and the stored profile stays as it was.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-shipping-cli-'));
const env = { DATA_DIR: join(dir, 'data') };
const file = (name: string, document: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document));
  return path;
};
const GOOD = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 }, free_from: { USD: 100 }, delivery_estimate: { min_business_days: 3, max_business_days: 5 } }] }] };

beforeAll(async () => {
  expect((await runCli(['merchants', 'create', 'cli-shop'], env)).code).toBe(0);
}, 120_000);

describe('gateway shipping', () => {
  it('imports a profile and exports it back as the same document', async () => {
    const imported = await runCli(['shipping', 'import', file('good.json', GOOD), '--merchant', 'cli-shop'], env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/1 zones and 1 methods for merchant cli-shop/);
    const exported = await runCli(['shipping', 'export', '--merchant', 'cli-shop'], env);
    expect(JSON.parse(exported.stdout)).toEqual(GOOD);
  }, 60_000);

  it.each([
    ['an unknown country', { zones: [{ ...GOOD.zones[0], countries: ['XX'] }] }, '$.zones[0].countries[0]'],
    ['a negative price', { zones: [{ ...GOOD.zones[0], methods: [{ id: 'standard', title: 'S', prices: { USD: -5 } }] }] }, '$.zones[0].methods[0].prices.USD'],
    ['overlapping zones', { zones: [GOOD.zones[0], { ...GOOD.zones[0], id: 'us2' }] }, '$.zones[1].countries[0]'],
  ])('refuses %s with one line naming the field, changing nothing', async (_name, document, path) => {
    const refused = await runCli(['shipping', 'import', file('bad.json', document), '--merchant', 'cli-shop'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(`error: ${path}:`);
    expect(JSON.parse((await runCli(['shipping', 'export', '--merchant', 'cli-shop'], env)).stdout)).toEqual(GOOD);
  }, 60_000);

  it('refuses a file that is not JSON', async () => {
    const refused = await runCli(['shipping', 'import', file('broken.json', '{"zones": ['), '--merchant', 'cli-shop'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not JSON/);
  }, 60_000);

  it('removes the profile (export then prints null), and refuses a second remove in one line', async () => {
    const removed = await runCli(['shipping', 'remove', '--merchant', 'cli-shop'], env);
    expect(removed).toMatchObject({ code: 0, stdout: 'removed the shipping profile of merchant cli-shop; it ships at the flat rate of the settings\n' });
    expect((await runCli(['shipping', 'export', '--merchant', 'cli-shop'], env)).stdout.trim()).toBe('null');
    const again = await runCli(['shipping', 'remove', '--merchant', 'cli-shop'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: merchant cli-shop has no shipping profile (it ships at the flat rate of the settings)\n');
  }, 60_000);
});
