/**
 * `gateway ucp keys list|rotate|retire` as an operator runs them (the built CLI in its own process),
 * and `serve` publishing what they stored: the current and the previous key during a rotation.
 */
import { describe, expect, it } from 'vitest';
import { exitOf, runCli, startServe } from './support/cli.js';
import { useCliDatabase } from './support/cli-database.js';

const database = useCliDatabase('gw-ucp-keys-cli');

describe('ucp keys commands', () => {
  it('rotate prints the new kid last; list shows states and no private key; serve publishes both keys of a rotation', async () => {
    const empty = await runCli(['ucp', 'keys', 'list'], { ...database.env(), GATEWAY_ENV: 'sandbox' });
    expect(empty.code).toBe(0);
    expect(empty.stderr).toMatch(/no UCP signing keys stored yet/);

    const first = await runCli(['ucp', 'keys', 'rotate', '--activate-in', '0'], database.env());
    expect(first.code).toBe(0);
    const firstKid = first.stdout.trim().split('\n').at(-1)!;
    const second = await runCli(['ucp', 'keys', 'rotate'], database.env());
    const secondKid = second.stdout.trim().split('\n').at(-1)!;
    expect(second.stdout).toMatch(/^signs from \S+; previous keys retire at \S+\n/);
    expect(secondKid).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const listed = await runCli(['ucp', 'keys', 'list'], database.env());
    expect(listed.stdout).toMatch(new RegExp(`^${secondKid}  scheduled  activates \\S+  retires -\\n${firstKid}  signing  activates \\S+  retires \\S+\\n$`));
    expect(listed.stdout + listed.stderr).not.toMatch(/"d"|PRIVATE/);

    const serve = await startServe({ ...database.env(), PORT: '0' });
    try {
      const profile = (await (await fetch(`${serve.url}/.well-known/ucp`)).json()) as { signing_keys: { kid: string }[] };
      expect(profile.signing_keys.map((key) => key.kid)).toEqual([secondKid, firstKid]);
    } finally {
      serve.child.kill('SIGTERM');
      await exitOf(serve.child);
    }

    expect((await runCli(['ucp', 'keys', 'retire', firstKid], database.env())).stdout).toBe(`retired ${firstKid}\n`);
    const unknown = await runCli(['ucp', 'keys', 'retire', 'no-such-kid'], database.env());
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/no UCP signing key no-such-kid/);
    expect((await runCli(['ucp', 'keys', 'list'], database.env())).stdout).toMatch(new RegExp(`${firstKid}  retired`));
  }, 180_000);

  it('refuses a bad duration with one line naming the option', async () => {
    const refused = await runCli(['ucp', 'keys', 'rotate', '--overlap', 'a week'], database.env());
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--overlap must be a duration like 1h, 30m, 7d or 0/);
  });
});
