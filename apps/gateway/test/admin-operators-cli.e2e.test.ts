/**
 * `operators create|list|revoke` as an operator runs them: the built CLI in its own process, on
 * the embedded database (or PostgreSQL when TEST_DATABASE_URL is set).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { useCliDatabase } from './support/cli-database.js';

const database = useCliDatabase('gw-operators-cli');

describe('operators commands', () => {
  it('create prints the id and the credential alone on the last line; list shows it without the secret; revoke marks it revoked', async () => {
    const merchant = await runCli(['merchants', 'create', 'opshop'], database.env());
    expect(merchant.code).toBe(0);

    const created = await runCli(['operators', 'create', '--name', 'alice', '--access', 'read', '--merchant', 'opshop'], database.env());
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id: opr_[0-9A-Za-z]{16}$/);
    expect(lines).toContain('access: read');
    expect(lines).toContain('merchants: opshop');
    const token = lines.at(-1)!;
    expect(token).toMatch(/^op_[0-9A-Za-z]{32}$/);
    const id = lines[0]!.slice('id: '.length);

    const all = await runCli(['operators', 'create', '--name', 'root', '--access', 'full', '--all-merchants'], database.env());
    expect(all.code).toBe(0);

    const listed = await runCli(['operators', 'list'], database.env());
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(token);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id))!;
    expect(row).toContain(`op_…${token.slice(-4)}`);
    expect(row).toContain('name="alice"');
    expect(row).toContain('access=read');
    expect(row).toContain('merchants=opshop');
    expect(row).toMatch(/ active$/);
    expect(listed.stdout).toMatch(/name="root" {2}access=full {2}merchants=\*/);

    const revoked = await runCli(['operators', 'revoke', id], database.env());
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${id}\n` });
    const after = await runCli(['operators', 'list'], database.env());
    expect(after.stdout.split('\n').find((line) => line.startsWith(id))).toMatch(/revoked=\d{4}-/);
  }, 180_000);

  it('refuses a merchant that does not exist, a missing scope, both scopes, a bad --access and an unknown id — one line on stderr', async () => {
    const cases: [string[], RegExp][] = [
      [['operators', 'create', '--name', 'x', '--access', 'full', '--merchant', 'nosuch'], /no merchant "nosuch"/],
      [['operators', 'create', '--name', 'x', '--access', 'full'], /--merchant ID .* or --all-merchants/],
      [['operators', 'create', '--name', 'x', '--access', 'full', '--merchant', 'opshop', '--all-merchants'], /one of the two/],
      [['operators', 'create', '--name', 'x', '--access', 'admin', '--all-merchants'], /--access must be one of read, full/],
      [['operators', 'revoke', 'opr_nosuch'], /no operator credential "opr_nosuch"/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, database.env());
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')[0]).toMatch(message);
    }
  }, 180_000);
});
