/**
 * The README's quick start and docs/agents.md's ACP walk-through are copy-paste true: each curl
 * block, run by bash as written (only the gateway's URL and key given, as a reader's shell has
 * them after `npm start`), keeps every id it needs in a variable — none typed in. The README's
 * creates a session, sets the address, applies the demo's code, completes it, and shows a second
 * cart refused without an address, then canceled; the ACP one discovers, creates, addresses,
 * chooses shipping, completes with a test token and cancels another session.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const run = promisify(execFile);
const doc = (path: string) => readFileSync(join(packageRoot, '..', '..', path), 'utf8');

/** The first ```sh block of the document's section `heading`. */
function firstShellBlock(text: string, heading: string): string {
  const section = text.slice(text.indexOf(`\n${heading}\n`));
  return section.match(/```sh\n([\s\S]*?)```/)![1]!;
}

const bash = (script: string, env: Record<string, string>) => run('bash', ['-c', `set -e\n${script}`], { env: { ...process.env, ...env }, timeout: 60_000 });

let gateway: TestGateway;
let key = '';

beforeAll(async () => {
  gateway = await startTestGateway();
  // The demo catalog's two products the quick start names, and its code WELCOME10.
  await gateway.importProducts('demo', [
    stocked('10219178', [{ sku: '10219178', price: 10.67, quantity: 50 }], { title: 'ADDE Chair', category: 'Chairs' }),
    stocked('70253541', [{ sku: '70253541', price: 52, quantity: 50 }], { title: 'AGAM Junior chair', category: 'Chairs' }),
    stocked('90420332', [{ sku: '90420332', price: 70.67, quantity: 25 }], { title: 'FREKVENS Bar table', category: 'Bar furniture' }),
  ]);
  await gateway.services.discounts.importFile('demo', catalogFile([{ type: 'code', code: 'WELCOME10', kind: 'percentage', percentage: 10 }], 'discounts.ndjson'));
  key = await gateway.createKey({ merchantIds: ['demo'] });
}, 120_000);
afterAll(() => gateway?.close());

describe('the walk-throughs, run as written', () => {
  it("the README's quick start runs in bash, capturing every id", async () => {
    const script = firstShellBlock(doc('README.md'), '## Quick start: a checkout in curl');
    expect(script).not.toMatch(/\/checkout_sessions\/cs_/); // no id typed in
    const { stdout, stderr } = await bash(script, { GW: gateway.url, GATEWAY_API_KEY: key });
    const ids = [...stderr.matchAll(/"checkout_session":\{"id":"(cs_\w+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2); // the two carts, each printed once as it was created
    expect(stdout).toContain(`${ids[0]}\n`); // echo $CS
    expect(stdout).toMatch(/"code":"WELCOME10"/);
    expect(stdout).toMatch(new RegExp(`"id":"${ids[0]}","status":"completed".*"order":\\{"id":"ord_`));
    expect(stdout).toMatch(/"code":"method_not_allowed"/);
    expect(stdout).toMatch(/"param":"shipping_address"/);
    expect(stdout).toMatch(new RegExp(`"id":"${ids[1]}","status":"canceled"`));
  }, 90_000);

  it("docs/agents.md's ACP walk-through runs as written too", async () => {
    // The block sets GW and the key for `npm start`'s defaults: the test's gateway replaces them.
    const script = firstShellBlock(doc('docs/agents.md'), '## Checkout for agents').replace(/^GW=\S+ GATEWAY_API_KEY=\S+/m, '');
    expect(script).not.toMatch(/checkout_sessions\/cs_/);
    const { stdout } = await bash(script, { GW: gateway.url, GATEWAY_API_KEY: key });
    const statuses = [...stdout.matchAll(/"id":"cs_\w+","protocol":\{[^}]*\}.*?"status":"(\w+)"/g)].map((m) => m[1]);
    expect(statuses).toEqual(expect.arrayContaining(['not_ready_for_payment', 'ready_for_payment', 'completed', 'canceled']));
    expect(stdout).toMatch(/"order":\{"type":"order","id":"ord_/);
  }, 90_000);
});
