/**
 * The listing commands and their actions, against a running gateway on the embedded database (the
 * commands go through its local socket): orders list|show, webhooks list|deliveries|resend|
 * disable|enable|remove, merchants create|list — each with --json, each refusing bad input in one
 * line with a non-zero exit and nothing changed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCalls, SF_ADDRESS, stocked } from './support/checkout.js';
import { runCli, startServe } from './support/cli.js';
import { catalogFile } from './support/fixtures.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-list-')), DATABASE_URL: undefined };
const json = async <T>(args: string[]): Promise<T> => {
  const result = await runCli([...args, '--json'], env);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
};
/** A refusal: exit 1, nothing on stdout, one line on stderr. */
const refused = async (args: string[], message: RegExp) => {
  const result = await runCli(args, env);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim()).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
};

let receiver: Receiver;
let served: Awaited<ReturnType<typeof startServe>>;
let endpointId: string;
let sessionId: string;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.reply = 500; // every attempt fails: a delivery to look at and resend
  served = await startServe({ ...env, PORT: '0', GATEWAY_ENV: 'sandbox', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '0,1h' });
  expect((await runCli(['merchants', 'create', 'list-shop'], env)).code).toBe(0);
  expect((await runCli(['catalog', 'import', catalogFile([stocked('chair')]), '--merchant', 'list-shop'], env)).code).toBe(0);
  endpointId = (await json<{ id: string }>(['webhooks', 'add-endpoint', '--merchant', 'list-shop', '--url', `${receiver.url}/hooks`])).id;
  const { key } = await json<{ key: string }>(['keys', 'create', '--merchant', 'list-shop', '--env', 'sandbox']);
  const api = checkoutCalls(served.url, key);
  const created = await api.create({ items: [{ product_id: 'chair', quantity: 1 }], shipping_address: SF_ADDRESS });
  const completed = await api.complete(created.body.checkout_session.id);
  expect(completed.status).toBe(200);
  sessionId = created.body.checkout_session.id;
}, 120_000);
afterAll(async () => {
  served?.child.kill('SIGKILL');
  await receiver?.close();
});

describe('listing commands', { timeout: 60_000 }, () => {
  it('merchants list and create, refusing an id taken or malformed', async () => {
    expect(await json<{ id: string; products: number }[]>(['merchants', 'list'])).toMatchObject([{ id: 'list-shop', products: 1, api_keys: 1 }]);
    expect((await runCli(['merchants', 'list'], env)).stdout).toMatch(/^ID\s+NAME\s+PRODUCTS\s+KEYS\s+CREATED\nlist-shop\s+list-shop\s+1\s+1\s/);
    await refused(['merchants', 'create', 'new-one', 'list-shop'], /^error: merchant "list-shop" exists already: nothing created$/);
    await refused(['merchants', 'create', 'bad id'], /^error: merchant id "bad id" must be/);
    expect(await json<unknown[]>(['merchants', 'list'])).toHaveLength(1);
  });

  it('orders list and show', async () => {
    const page = await json<{ items: { id: string; status: string }[]; has_more: boolean }>(['orders', 'list', '--merchant', 'list-shop']);
    expect(page).toMatchObject({ items: [{ checkout_session_id: sessionId, status: 'created' }], has_more: false });
    const orderId = page.items[0]!.id;
    const text = await runCli(['orders', 'list', '--merchant', 'list-shop'], env);
    expect(text.stdout).toMatch(new RegExp(`^ID\\s+STATUS\\s+TOTAL\\s+REFUNDED\\s+CUSTOMER\\s+CREATED\\n${orderId}\\s+created\\s`));
    expect(await json<{ id: string }>(['orders', 'show', '--merchant', 'list-shop', '--order', orderId])).toMatchObject({ id: orderId, currency: 'USD' });

    await refused(['orders', 'show', '--merchant', 'list-shop', '--order', 'ord_nosuch'], /^error: No such order: ord_nosuch$/);
    await refused(['orders', 'list', '--merchant', 'nosuch'], /^error: no merchant "nosuch" \(create it first: pnpm gateway merchants create nosuch\)$/);
    await refused(['orders', 'list', '--merchant', 'list-shop', '--status', 'lost'], /^error: --status must be one of created, /);
    await refused(['orders', 'list', '--merchant', 'list-shop', '--limit', '500'], /^error: limit must be an integer from 1 to 100$/);
  });

  it('webhooks list, deliveries with their attempts, resend', async () => {
    expect(await json<unknown[]>(['webhooks', 'list', '--merchant', 'list-shop'])).toMatchObject([{ id: endpointId, status: 'enabled', url: `${receiver.url}/hooks` }]);
    expect((await runCli(['webhooks', 'list'], env)).stdout).toMatch(/^ID\s+MERCHANT\s+PROTOCOL\s+STATUS\s+CREATED\s+URL\n/);

    await receiver.waitFor(1, 20_000);
    let deliveries: { id: string; state: string; event: { type: string }; attempts: { status: number }[] }[] = [];
    await expect.poll(async () => (deliveries = await json(['webhooks', 'deliveries', '--endpoint', endpointId]))[0]?.attempts.length ?? 0, { interval: 200 }).toBeGreaterThan(0);
    expect(deliveries).toMatchObject([{ state: 'pending', event: { type: 'order.created' }, attempts: [{ status: 500 }] }]);
    expect((await runCli(['webhooks', 'deliveries', '--merchant', 'list-shop'], env)).stdout).toMatch(/^ID\s+EVENT\s+TYPE\s+ENDPOINT\s+STATE\s+ATTEMPTS\s+LAST\s+NEXT\n.*\s500 \d+ ms\s/);

    receiver.reply = 200;
    expect(await json(['webhooks', 'resend', '--delivery', deliveries[0]!.id])).toEqual({ resent: deliveries[0]!.id });
    await receiver.waitFor(2, 20_000); // sent again now, not in an hour

    await refused(['webhooks', 'resend', '--delivery', 'wd_nosuch'], /^error: no webhook delivery "wd_nosuch"$/);
    await refused(['webhooks', 'deliveries', '--state', 'lost'], /^error: --state must be one of pending, succeeded, failed, abandoned/);
    await refused(['webhooks', 'deliveries', '--limit', '0'], /^error: --limit must be a positive whole number/);
  });

  it('webhooks disable, enable, remove', async () => {
    const [delivery] = await json<{ id: string }[]>(['webhooks', 'deliveries', '--endpoint', endpointId]);
    expect((await runCli(['webhooks', 'disable', '--endpoint', endpointId], env)).stdout).toBe(`disabled: ${endpointId}\n`);
    expect(await json(['webhooks', 'list'])).toMatchObject([{ id: endpointId, status: 'disabled' }]);
    await refused(['webhooks', 'resend', '--delivery', delivery!.id], new RegExp(`^error: endpoint ${endpointId} is disabled: enable it first`));
    expect((await runCli(['webhooks', 'enable', '--endpoint', endpointId], env)).stdout).toBe(`enabled: ${endpointId}\n`);

    await refused(['webhooks', 'remove', '--endpoint', 'we_nosuch'], /^error: no webhook endpoint "we_nosuch"$/);
    expect(await json<unknown[]>(['webhooks', 'list'])).toHaveLength(1);
    expect(await json(['webhooks', 'remove', '--endpoint', endpointId])).toEqual({ removed: endpointId });
    expect((await runCli(['webhooks', 'list'], env)).stdout).toBe('no endpoints\n');
    expect(await json(['webhooks', 'deliveries'])).toEqual([]);
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  });
});
