/**
 * The console in a real browser (Debian's headless Chromium through playwright-core; skipped,
 * saying so, without it), over a real gateway, database, delivery worker and webhook receiver:
 * sign in with an operator credential, find an order, see its delivery attempts (the receiver
 * failing), resend and see the new attempt succeed, import a catalog file and search it (what the query was
 * understood as, each result's score), revoke a key (then refused on the merchant API) — and
 * nothing fetched from elsewhere. Screenshots at laptop and phone widths are kept in test-results/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CommerceGateway } from '@commerce-gateway/sdk';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`[console] SKIPPED: no Chromium at ${CHROMIUM}; the console's browser tests did not run`);

const SHOTS = join(packageRoot, 'test-results');
const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

let gateway: TestGateway;
let receiver: Receiver;
let worker: DeliveryWorker;
let browser: Browser;
let page: Page;
let credential = '';
let orderId = '';
const elsewhere: string[] = [];

async function shoot(name: string): Promise<void> {
  for (const [width, size] of [['laptop', LAPTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SHOTS, `console-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [
    stocked('desk-chair', [{ price: 40, quantity: 100 }], { title: 'Desk chair', category: 'Chairs' }),
    stocked('oak-table', [{ price: 300, quantity: 5 }], { title: 'Oak dining table', category: 'Tables' }),
    stocked('wool-rug', [{ price: 90, quantity: 5 }], { title: 'Wool rug', category: 'Rugs' }),
  ]);
  credential = (await gateway.services.admin.operators.create({ name: 'Ada (support)', access: 'full', allMerchants: true })).token;
  receiver = await startReceiver();
  receiver.reply = 503; // the merchant's receiver is down until the test says otherwise
  worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
  await gateway.services.admin.webhookEndpoints.add('shop', `${receiver.url}/hooks`, 'gateway');
  const gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
  const session = await gw.checkoutSessions.create({ items: [{ product_id: 'desk-chair', quantity: 2 }], shipping_address: SF_ADDRESS, customer: { email: 'grace@example.com' } });
  orderId = (await gw.checkoutSessions.complete(session.id)).order!.id;
  await receiver.waitFor(2, 30_000); // the first attempt and the first retry (5 s later) were made, and failed; the next is minutes away
  if (!available) return;
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  page = await browser.newPage({ viewport: LAPTOP });
  const origin = new URL(gateway.url).origin;
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !/^(data|blob|about):/.test(request.url())) elsewhere.push(request.url());
  });
  page.on('dialog', (dialog) => void dialog.accept());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
});

describe.skipIf(!available)('the console in Chromium', () => {
  it('refuses a wrong credential, then signs in with the right one (the credential is not kept in the page)', async () => {
    await page.goto(`${gateway.url}/console`);
    await page.getByLabel('Operator credential').fill('op_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Invalid operator credential/);
    await page.getByLabel('Operator credential').fill(credential);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home' }).waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(`${gateway.url}/console/m/shop/home`);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'cg_console')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).not.toContain('op_');
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByRole('link', { name: orderId }).waitFor();
    await shoot('orders');
  });

  it('finds the order and shows its timeline with the failed delivery attempts', async () => {
    await page.getByLabel('Find an order').fill(orderId);
    await page.getByLabel('Find an order').press('Enter');
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    const event = page.locator('li[data-event="order.created"]');
    await event.waitFor();
    await expect.poll(() => event.locator('tbody tr').count()).toBe(2);
    for (const row of await event.locator('tbody tr').all()) expect(await row.textContent()).toContain('503');
    expect(await event.locator('.state').first().textContent()).toBe('pending');
    expect(await page.getByTestId('order-status').textContent()).toBe('created');
    await shoot('order-failing');
  });

  it('resends the delivery (the receiver is back) and shows the new, successful attempt', async () => {
    const event = page.locator('li[data-event="order.created"]');
    receiver.reply = 200;
    await event.getByRole('button', { name: 'Resend' }).click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return event.locator('tbody tr', { hasText: '200' }).count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(1);
    expect(await event.locator('tbody tr').nth(2).textContent()).toMatch(/^3.*200/); // a third attempt: the resend's
    expect(await event.locator('.state').first().textContent()).toBe('succeeded');
    expect(receiver.requests.at(-1)!.json.type).toBe('order.created');
    await shoot('order-resent');
  });

  it('shows the endpoint\'s delivery log', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: `${receiver.url}/hooks` }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    await expect.poll(() => page.locator('[data-delivery] .state').first().textContent()).toBe('succeeded');
    await shoot('webhook-deliveries');
  });

  it('imports a catalog file with its progress, then searches the catalog, showing what the query was understood as and each result\'s score', async () => {
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByRole('heading', { name: 'Catalog' }).waitFor();
    await page.getByText(/^3 products/).waitFor();
    // An upload through the admin API, followed until it ends; the listing then counts it.
    await page.getByLabel(/Import a catalog/).setInputFiles(catalogFile([stocked('bookcase', [{ price: 120, quantity: 3 }], { title: 'Walnut bookcase', category: 'Shelves' })], 'upload.ndjson'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText(/: succeeded — 1 of 1 products/).waitFor({ timeout: 20_000 });
    await page.getByText(/^4 products/).waitFor();
    await page.getByLabel('Search').fill('chair under $100');
    await page.getByRole('button', { name: 'Search' }).click();
    const understood = page.getByRole('region', { name: 'Query understanding' });
    await understood.waitFor();
    expect(await understood.textContent()).toMatch(/Searched words“chair”.*Maximum price100/);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.first().textContent()).toContain('Desk chair');
    expect(Number(await rows.first().locator('.score').textContent())).toBeGreaterThan(0);
    await shoot('catalog-search');
  });

  it('revokes a key; the merchant API then refuses it', async () => {
    const key = await gateway.createKey({ merchantIds: ['shop'] });
    expect((await call(`${gateway.url}/orders`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await page.getByRole('link', { name: 'API keys' }).click();
    const row = page.locator('tbody tr', { hasText: key.slice(-4) }).filter({ has: page.getByRole('button', { name: 'Revoke' }) });
    await row.first().waitFor();
    await shoot('keys');
    await row.first().getByRole('button', { name: 'Revoke' }).click();
    await row.first().getByRole('button', { name: 'Yes, revoke' }).click(); // asked in the page, not a browser dialog
    await expect.poll(() => page.locator('tbody tr', { hasText: key.slice(-4) }).first().textContent()).toMatch(/revoked/);
    expect((await call(`${gateway.url}/orders`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it('is keyboard-accessible: the skip link and the sections are reached with Tab', async () => {
    await page.goto(`${gateway.url}/console/m/shop/orders`);
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      reached.push((await page.evaluate(() => document.activeElement?.textContent?.trim())) ?? '');
    }
    expect(reached).toEqual(expect.arrayContaining(['Sign out', 'Orders', 'Webhooks', 'Catalog', 'API keys']));
    await page.getByRole('link', { name: 'Discounts' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Discounts' }).waitFor();
  });

  it('fetched nothing from elsewhere; signing out ends the session', async () => {
    expect(elsewhere).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator credential').waitFor();
    const reply = await page.evaluate(async () => (await fetch('/admin/merchants')).status);
    expect(reply).toBe(401);
  });
});
