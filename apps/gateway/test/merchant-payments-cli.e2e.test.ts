/**
 * `gateway merchants payments MERCHANT [--stripe-account acct_… | --none]` through the built CLI:
 * shows, connects and disconnects a merchant's Stripe account; refuses a malformed account, both
 * options at once and an unknown merchant, each in one line, changing nothing.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { useCliDatabase } from './support/cli-database.js';

const database = useCliDatabase('gw-payments-cli', { merchants: ['cli-shop'] });
const cli = (...args: string[]) => runCli(['merchants', 'payments', ...args], database.env());

describe('gateway merchants payments', () => {
  it('shows a merchant without an account, connects one, lists it, and disconnects it', async () => {
    expect(await cli('cli-shop')).toMatchObject({
      code: 0,
      stdout: 'merchant cli-shop has no Stripe account and cannot take payments (connect one: gateway merchants payments cli-shop --stripe-account acct_…)\n',
    });
    expect(await cli('cli-shop', '--stripe-account', 'acct_1CliShop000')).toMatchObject({ code: 0, stdout: 'merchant cli-shop takes payments into Stripe account acct_1CliShop000\n' });
    expect(JSON.parse((await cli('cli-shop', '--json')).stdout)).toEqual({ merchant_id: 'cli-shop', stripe_account_id: 'acct_1CliShop000' });
    const listed = JSON.parse((await runCli(['merchants', 'list', '--json'], database.env())).stdout) as { id: string; stripe_account_id: string | null }[];
    expect(listed).toMatchObject([{ id: 'cli-shop', stripe_account_id: 'acct_1CliShop000' }]);
    expect(await cli('cli-shop', '--none')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^merchant cli-shop has no Stripe account/) });
    expect(JSON.parse((await cli('cli-shop', '--json')).stdout).stripe_account_id).toBeNull();
  }, 120_000);

  it.each([
    [['cli-shop', '--stripe-account', 'pk_live_123'], /^error: --stripe-account "pk_live_123" is not a Stripe account id/],
    [['cli-shop', '--stripe-account', 'acct_1CliShop000', '--none'], /^error: give --stripe-account or --none, not both/],
    [['nosuch', '--stripe-account', 'acct_1CliShop000'], /^error: no merchant "nosuch" \(create it first/],
  ])('refuses %j in one line', async (args, message) => {
    const refused = await cli(...args);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(message);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse((await cli('cli-shop', '--json')).stdout).stripe_account_id).toBeNull();
  }, 120_000);
});
