/**
 * The console's order actions follow the order's state, in a real browser (Debian's headless
 * Chromium through playwright-core; skipped, saying so, without it) over a real gateway and
 * database: an order refunded in full shows "Fulfil…", "Refund…" and "Cancel"
 * disabled, each with its reason beside it; an order just placed has all three enabled.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`[console-order-actions] SKIPPED: no Chromium at ${CHROMIUM}; the console's browser tests did not run`);

let gateway: TestGateway;
let browser: Browser;
let page: Page;
let key = '';
let credential = '';

async function newOrder(): Promise<string> {
  const headers = { authorization: `Bearer ${key}` };
  const session = await call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers, json: { items: [{ product_id: 'desk-chair', quantity: 2 }], shipping_address: SF_ADDRESS } });
  const completed = await call(`${gateway.url}/checkout_sessions/${session.body.checkout_session.id}/complete`, { method: 'POST', headers, json: {} });
  return completed.body.checkout_session.order.id as string;
}

async function openOrder(orderId: string): Promise<void> {
  await page.goto(`${gateway.url}/console/m/shop/orders/${orderId}`);
  await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor({ timeout: 20_000 });
}

const button = (name: string) => page.getByRole('button', { name, exact: true });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('desk-chair', [{ price: 40, quantity: 100 }], { title: 'Desk chair' })]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
  credential = (await gateway.services.admin.operators.create({ name: 'Ada (support)', access: 'full', merchantIds: ['shop'] })).token;
  if (!available) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  page = await browser.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${gateway.url}/console`);
  await page.getByLabel('Operator credential').fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Home' }).waitFor({ timeout: 20_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

describe.skipIf(!available)('order actions in the console', () => {
  it('enables every action on an order just placed', async () => {
    await openOrder(await newOrder());
    for (const name of ['Fulfil…', 'Refund…', 'Cancel']) expect(await button(name).isEnabled()).toBe(true);
  }, 60_000);

  it('once the order is refunded in full, disables fulfil, refund and cancel with the reason shown', async () => {
    const orderId = await newOrder();
    await openOrder(orderId);
    await button('Refund…').click();
    const form = page.getByRole('form', { name: 'Refund' });
    await form.getByLabel(/Amount/).fill(String(await form.getByLabel(/Amount/).getAttribute('max'))); // all that is left
    await form.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => page.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('refunded');
    for (const name of ['Fulfil…', 'Refund…', 'Cancel']) {
      await expect.poll(() => button(name).isDisabled()).toBe(true);
    }
    const reason = async (name: string) => {
      const id = await button(name).getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    expect(await reason('Fulfil…')).toBe('Everything paid was refunded; nothing is left to ship');
    expect(await reason('Refund…')).toBe('Everything paid was refunded');
    expect(await reason('Cancel')).toBe('Everything paid was refunded; nothing is left to cancel');
    expect(await button('Fulfil…').getAttribute('title')).toBe('Everything paid was refunded; nothing is left to ship');
    const order = await call(`${gateway.url}/orders/${orderId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(order.body).toMatchObject({ status: 'refunded', fulfillments: [] });
  }, 60_000);
});
