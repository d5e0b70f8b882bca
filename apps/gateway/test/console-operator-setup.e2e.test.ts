/**
 * The console's setup pages as an operator uses them, in Chromium over a real gateway, database,
 * delivery worker and webhook receiver: webhook endpoints with their 24-hour health (success rate,
 * latency, last failure) named by URL; the catalog's stock column, a product's page (variants,
 * stock, attributes) with its price and stock edited, and search keeping its understanding panel;
 * keys created with a name, a tier and limits, whose secret disappears once revoked; the merchant's
 * Stripe connected account shown and set; discount targets and
 * consents in words, not JSON; and the phone's tab bar, which scrolls inside itself, the current
 * section in view. Screenshots at 1366 and 390 px go to test-results/.
 */
import pino from 'pino';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { chromiumAvailable, CHROMIUM, openConsole, PHONE, type ConsoleBrowser } from './support/console-browser.js';
import { catalogFile } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

if (!chromiumAvailable) console.warn(`[console-operator-setup] SKIPPED: no Chromium at ${CHROMIUM}; the console's browser tests did not run`);

let gateway: TestGateway;
let receiver: Receiver;
let worker: DeliveryWorker;
let ui: ConsoleBrowser;
let page: Page;

const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [
    stocked('desk-chair', [{ price: 40, quantity: 100 }, { price: 44, quantity: 2 }], { title: 'Desk chair', category: 'Chairs', attributes: { material: ['oak'], color: ['natural'] } }),
    stocked('wool-rug', [{ price: 90, quantity: 0 }], { title: 'Wool rug', category: 'Rugs' }),
  ]);
  await gateway.services.discounts.importFile('shop', catalogFile([{ type: 'code', code: 'CHAIRS5', kind: 'fixed', amounts: { USD: 5 }, applies_to: { categories: ['Chairs'] } }], 'discounts.ndjson'));
  await gateway.services.customers.importFile('shop', catalogFile([{ email: 'ada@example.com', name: 'Ada', consent: { marketing: true, analytics: false } }], 'customers.ndjson'));
  const key = await gateway.createKey({ merchantIds: ['shop'] });
  const credential = (await gateway.services.admin.operators.create({ name: 'Ada (support)', access: 'full', merchantIds: ['shop'] })).token;
  receiver = await startReceiver();
  receiver.reply = 500;
  worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
  await gateway.services.admin.webhookEndpoints.add('shop', `${receiver.url}/orders-hook`, 'gateway');
  const headers = { authorization: `Bearer ${key}` };
  const session = await call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers, json: { items: [{ product_id: 'desk-chair', quantity: 1 }], shipping_address: SF_ADDRESS } });
  await call(`${gateway.url}/checkout_sessions/${session.body.checkout_session.id}/complete`, { method: 'POST', headers, json: {} });
  await receiver.waitFor(1, 30_000);
  if (!chromiumAvailable) return;
  ui = await openConsole(gateway.url, credential);
  page = ui.page;
}, 120_000);

afterAll(async () => {
  await ui?.close();
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
});

describe.skipIf(!chromiumAvailable)('the console for an operator setting up a merchant', () => {
  it("lists webhook endpoints with their 24-hour health, and shows one by its URL with its deliveries' endpoint named", async () => {
    await section('Webhooks').click();
    const row = page.locator('tbody tr', { hasText: `${receiver.url}/orders-hook` });
    await expect.poll(() => row.locator('td[data-label="Success (24 h)"]').textContent()).toMatch(/^0 % of \d+ · failing$/);
    expect(await row.locator('td[data-label="Latency (24 h)"]').textContent()).toMatch(/\d+ ms avg · \d+ ms p95/);
    expect(await row.locator('td[data-label="Last failure"]').textContent()).toMatch(/HTTP 500/);
    await ui.shoot('webhooks-health');
    await row.getByRole('link', { name: `${receiver.url}/orders-hook` }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    await expect.poll(() => page.getByTestId('success-rate').textContent()).toMatch(/0 %/);
    expect(await page.locator('[data-delivery] .delivery-head').first().textContent()).toContain(`${receiver.url}/orders-hook`);
    expect(await page.locator('main').textContent()).not.toMatch(/→ we_/);
    await ui.shoot('webhook-endpoint');
  });

  it("shows the catalog's stock column, opens a product, and edits a variant's price and stock", async () => {
    await section('Catalog').click();
    await page.getByText(/^2 products/).waitFor();
    const stock = (title: string) => page.locator('tbody tr', { hasText: title }).getByTestId('stock').textContent();
    expect(await stock('Desk chair')).toBe('101 in stock');
    expect(await stock('Wool rug')).toBe('out of stock');
    await ui.shoot('catalog');
    await page.getByRole('link', { name: 'Desk chair' }).click();
    const product = page.getByRole('region', { name: 'Product Desk chair' });
    await product.waitFor();
    expect(await product.locator('.facts').textContent()).toMatch(/materialoak.*colornatural|colornatural.*materialoak/);
    expect(await product.getByRole('region', { name: 'Variants' }).locator('tbody tr').count()).toBe(2);
    const sku = (await product.locator('tbody tr').nth(1).getAttribute('data-sku'))!;
    await product.getByLabel(`Price of ${sku}`).fill('47.5');
    await product.getByLabel(`Stock of ${sku}`).fill('9');
    await product.getByRole('button', { name: 'Save' }).click();
    await product.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await product.locator(`tbody tr[data-sku="${sku}"]`).textContent()).toMatch(/\$47\.50.*9 · in stock/);
    expect(await product.getByTestId('product-stock').textContent()).toBe('108 in stock'); // 99 of the first variant (one was sold) and the 9 set;
    await ui.shoot('product');
  });

  it('searches the catalog with the understanding panel kept', async () => {
    await page.getByRole('link', { name: '← Catalog' }).click();
    await page.getByLabel('Search').fill('chair under $60');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Query understanding' }).textContent()).toMatch(/Maximum price60/);
    await expect.poll(() => page.locator('tbody tr').first().textContent()).toContain('Desk chair');
  });

  it('creates a key with a name, a tier and limits (shown once with them); once revoked, its secret is gone', async () => {
    await section('API keys').click();
    await page.getByLabel('Name').fill('ChatGPT agent');
    await page.getByLabel('Tier').selectOption('enterprise');
    await page.getByLabel('Requests/min').fill('120');
    await page.getByLabel('Requests/day').fill('5000');
    await page.getByRole('button', { name: 'Create key' }).click();
    const once = page.locator('.once');
    await expect.poll(() => once.textContent()).toMatch(/New key “ChatGPT agent” sk_\w+…\w{4} \(enterprise, 120\/min · 5,000\/day\).*sk_/);
    const display = (await once.textContent())!.match(/” (sk_\S+)/)![1]!;
    const row = page.locator('tbody tr', { hasText: display });
    expect(await row.locator('td[data-label="Limits"]').textContent()).toBe('120/min · 5,000/day');
    expect(await row.locator('td[data-label="Name"]').textContent()).toBe('ChatGPT agent');
    await ui.shoot('keys');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => row.textContent()).toMatch(/revoked/);
    expect(await page.locator('.once').count()).toBe(0);
  });

  it('shows discount targets and consents in words, no JSON in any table', async () => {
    await section('Discounts').click();
    const discount = page.locator('tbody tr', { hasText: 'CHAIRS5' });
    await discount.waitFor();
    expect(await discount.locator('td[data-label="Applies to"]').textContent()).toBe('categories: Chairs');
    expect(await discount.locator('td[data-label="Value"]').textContent()).toBe('USD: 5');
    await ui.shoot('discounts');
    await section('Customers').click();
    const customer = page.locator('tbody tr', { hasText: 'ada@example.com' });
    await customer.waitFor();
    expect(await customer.locator('td[data-label="Consent"]').textContent()).toBe('marketing yes · analytics no');
    for (const cell of await page.locator('td').allTextContents()) expect(cell).not.toMatch(/[{}[\]"]/);
    await ui.shoot('customers');
  });

  it("shows the merchant's Stripe connected account, connects one and disconnects it (asked in the page)", async () => {
    await section('Merchant').click();
    await expect.poll(() => page.getByTestId('stripe-account').textContent()).toMatch(/No Stripe account connected/);
    await page.getByLabel('Stripe connected account').fill('acct_1Nv0FGQ9RKHgCVdK');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.getByTestId('stripe-account').textContent()).toMatch(/direct charges on the Stripe account acct_1Nv0FGQ9RKHgCVdK/);
    await ui.shoot('merchant');
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('button', { name: 'Yes, disconnect' }).click();
    await expect.poll(() => page.getByTestId('stripe-account').textContent()).toMatch(/No Stripe account connected/);
  });

  it('on a phone, the tab bar scrolls within itself (the page does not) and keeps the current section in view', async () => {
    await page.setViewportSize(PHONE);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const sizes = await nav.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, page: document.documentElement.scrollWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    expect(sizes.page).toBeLessThanOrEqual(PHONE.width);
    const current = await nav.locator('[aria-current="page"]').boundingBox();
    expect(current!.x).toBeGreaterThanOrEqual(0);
    expect(current!.x + current!.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: 'test-results/console-tabs-phone.png' });
    expect(ui.elsewhere).toEqual([]);
  });
});
