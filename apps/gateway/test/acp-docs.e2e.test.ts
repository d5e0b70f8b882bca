/**
 * /docs shows the ACP 2026-04-17 profile beside our API (Scalar, two documents): our API first,
 * as before, and the official agentic-checkout operations under this gateway's /acp, in a real
 * browser (Debian's headless Chromium). Skipped, saying so, where Chromium is missing
 * (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`[docs] SKIPPED: no Chromium at ${CHROMIUM}; the ACP /docs browser test did not run`);

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway?.close());

describe('GET /acp/openapi.json', () => {
  it('is the official agentic-checkout document, served under /acp with the profile note, without a key', async () => {
    const reply = await call(`${gateway.url}/acp/openapi.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.body.servers).toEqual([{ url: '/acp', description: 'This gateway (ACP profile)' }]);
    expect(reply.body.info.version).toBe('2026-04-17');
    expect(reply.body.info.description).toContain('spt_test_approve');
    expect(Object.keys(reply.body.paths)).toEqual(['/checkout_sessions', '/checkout_sessions/{checkout_session_id}', '/checkout_sessions/{checkout_session_id}/complete', '/checkout_sessions/{checkout_session_id}/cancel']);
  });

  it("shows where this profile's requests depart from the official schema: quantity, items, limits — the vendored document unchanged", async () => {
    const served = (await call(`${gateway.url}/acp/openapi.json`)).body;
    const { Item, CheckoutSessionCreateRequest: create, CheckoutSessionUpdateRequest: update } = served.components.schemas;
    expect(Item.properties.quantity).toMatchObject({ type: 'integer', minimum: 1, maximum: 999, description: expect.stringContaining("RFC's `Item.quantity`") });
    for (const request of [create, update]) {
      expect(request.properties.items).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Item' }, description: expect.stringContaining('line_items') });
    }
    expect(create.required).toEqual(['currency', 'capabilities']);
    const note = served.info.description as string;
    for (const rule of ['**`quantity`**', 'a whole number from 1 to 999', '`2.5` is refused', '**`items`**', 'e-mail at most 320', 'ISO 3166-1 alpha-2', '`selected_fulfillment_options[].item_ids` must name items of the cart', 'PUBLIC_BASE_URL']) {
      expect(note, rule).toContain(rule);
    }
    const vendored = createRequire(import.meta.url)('@commerce-gateway/openapi/acp/openapi.agentic_checkout.json');
    expect(vendored.components.schemas.Item.properties).not.toHaveProperty('quantity');
    expect(vendored.components.schemas.CheckoutSessionCreateRequest.properties).not.toHaveProperty('items');
  });

  it('is listed in /docs beside our own contract, ours first', async () => {
    const init = await (await fetch(`${gateway.url}/docs/init.js`)).text();
    expect(init.indexOf("url: '/openapi.json'")).toBeGreaterThan(-1);
    expect(init.indexOf("url: '/openapi.json'")).toBeLessThan(init.indexOf("url: '/acp/openapi.json'"));
  });
});

describe.skipIf(!available)('/docs in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });
  afterAll(() => browser?.close());

  it('offers the ACP profile beside our API and renders its operations, fetching nothing from elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const origin = new URL(gateway.url).origin;
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !/^(data|blob|about):/.test(url)) elsewhere.push(url);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    await page.goto(`${gateway.url}/docs`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Commerce Gateway API' }).first().waitFor({ timeout: 20_000 });
    await page.goto(`${gateway.url}/docs?api=acp`, { waitUntil: 'networkidle' });
    await page.getByText('Create a checkout session', { exact: true }).first().waitFor({ timeout: 20_000 });
    for (const summary of ['Update a checkout session', 'Retrieve a checkout session', 'Complete a checkout session', 'Cancel a checkout session']) {
      expect(await page.getByText(summary, { exact: true }).first().isVisible(), summary).toBe(true);
    }
    mkdirSync(join(packageRoot, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(packageRoot, 'test-results', 'docs-acp.png') });
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);
});
