/**
 * The console as an operator running orders uses it, in Chromium over a real gateway, database,
 * delivery worker and webhook receiver: the home page (today's revenue, payments needing
 * attention, the failing endpoint by its URL, 14 days of orders), the order page (address, buyer,
 * amounts with the discount's code, payment, items), live refresh (a fulfillment made elsewhere
 * shows up with its tracking without a click), partial refunds by amount and by lines with a
 * reason in the page's own form, Resend showing its outcome, and delivery states that agree with
 * their attempts. Screenshots at 1366 and 390 px go to test-results/.
 */
import pino from 'pino';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { chromiumAvailable, CHROMIUM, openConsole, type ConsoleBrowser } from './support/console-browser.js';
import { catalogFile } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

if (!chromiumAvailable) console.warn(`[console-operator-orders] SKIPPED: no Chromium at ${CHROMIUM}; the console's browser tests did not run`);

let gateway: TestGateway;
let receiver: Receiver;
let worker: DeliveryWorker;
let ui: ConsoleBrowser;
let page: Page;
let key = '';
let orderId = '';

const merchantApi = (path: string, init: RequestInit & { json?: unknown } = {}) => call(`${gateway.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('desk-chair', [{ price: 40, quantity: 100 }], { title: 'Desk chair', category: 'Chairs' }), stocked('wool-rug', [{ price: 90, quantity: 5 }], { title: 'Wool rug' })]);
  await gateway.services.discounts.importFile('shop', catalogFile([{ type: 'code', code: 'TEN', kind: 'percentage', percentage: 10 }], 'discounts.ndjson'));
  key = await gateway.createKey({ merchantIds: ['shop'] });
  const credential = (await gateway.services.admin.operators.create({ name: 'Ada (support)', access: 'full', merchantIds: ['shop'] })).token;
  receiver = await startReceiver();
  receiver.reply = 503;
  worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
  await gateway.services.admin.webhookEndpoints.add('shop', `${receiver.url}/hooks`, 'gateway');
  const session = await merchantApi('/checkout_sessions', {
    method: 'POST',
    json: { items: [{ product_id: 'desk-chair', quantity: 3 }, { product_id: 'wool-rug', quantity: 1 }], shipping_address: SF_ADDRESS, customer: { email: 'grace@example.com', name: 'Grace Hopper' }, discount_codes: ['TEN'] },
  });
  orderId = (await merchantApi(`/checkout_sessions/${session.body.checkout_session.id}/complete`, { method: 'POST', json: {} })).body.checkout_session.order.id;
  await receiver.waitFor(1, 30_000);
  // A capture the PSP refused: the home page's "payments needing attention".
  await gateway.db.prisma.paymentOperation.create({ data: { id: 'pop_declined', merchantId: 'shop', sessionId: session.body.checkout_session.id, orderId, kind: 'capture', state: 'failed', provider: 'test', amount: 19440n, currency: 'USD', idempotencyKey: 'console-test-declined', lastError: 'card_declined' } });
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

describe.skipIf(!chromiumAvailable)('the console for an operator running orders', () => {
  it("lands on Home: today's revenue per currency, the payment needing attention, the failing endpoint by URL, 14 days of orders", async () => {
    expect(page.url()).toBe(`${gateway.url}/console/m/shop/home`);
    const today = page.getByRole('region', { name: 'Today' });
    await expect.poll(() => today.textContent()).toMatch(/1 order in USD/);
    expect(await page.getByRole('region', { name: 'Payments needing attention' }).textContent()).toMatch(/1capture.*failed.*card_declined/);
    await expect.poll(() => page.getByRole('region', { name: 'Failing webhook endpoints' }).textContent()).toContain(`${receiver.url}/hooks`);
    expect(await page.locator('svg.chart g[data-day]').count()).toBe(14);
    expect(await page.getByRole('img', { name: /1 orders over 14 days/ }).count()).toBe(1);
    await ui.shoot('home');
  });

  it('shows the order: buyer, address, amounts with the code TEN, payment, items', async () => {
    await page.getByRole('region', { name: 'Payments needing attention' }).getByRole('link', { name: orderId }).click();
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    const buyer = page.getByRole('region', { name: 'Buyer' });
    expect(await buyer.textContent()).toMatch(/Grace Hopper.*grace@example\.com.*Ada Lovelace.*1 Market St.*94105 San Francisco CA.*US/);
    const amounts = page.getByRole('region', { name: 'Amounts' });
    expect(await amounts.textContent()).toMatch(/Subtotal\$210\.00.*Code TEN− \$21\.00.*Shipping.*Tax \(7\.25 %\).*Total/);
    expect(await page.getByRole('region', { name: 'Payment' }).textContent()).toMatch(/Payment/);
    expect(await page.getByRole('region', { name: 'Items' }).locator('tbody tr').count()).toBe(2);
    await ui.shoot('order');
  });

  it('refreshes on its own: a fulfillment made through the merchant API appears with its tracking, no click', async () => {
    const made = await merchantApi(`/orders/${orderId}/fulfillments`, { method: 'POST', json: { carrier: 'UPS', tracking_number: '1Z999', tracking_url: 'https://track.example/1Z999', lines: [{ line: 1, quantity: 1 }] } });
    expect(made.status).toBe(200);
    await expect.poll(() => page.getByTestId('order-status').textContent(), { timeout: 15_000 }).toBe('partially_fulfilled');
    const fulfillments = page.getByRole('region', { name: 'Fulfillments' });
    expect(await fulfillments.textContent()).toMatch(/shipped.*1 of line 1.*UPS/);
    expect(await fulfillments.getByRole('link', { name: '1Z999' }).getAttribute('href')).toBe('https://track.example/1Z999');
  });

  it('refunds part of the order by amount, with a reason and a note, in the page (no browser dialog)', async () => {
    await page.getByRole('button', { name: 'Refund…' }).click();
    const form = page.getByRole('form', { name: 'Refund' });
    await form.getByLabel(/Amount/).fill('5');
    await form.getByLabel('Reason').selectOption('damaged');
    await form.getByLabel('Note').fill('scratched leg');
    await ui.shoot('order-refund-form');
    await form.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => page.locator('.timeline').first().textContent()).toMatch(/Refunded \$5\.00 · damaged · “scratched leg”/);
    expect(await page.getByRole('region', { name: 'Amounts' }).textContent()).toMatch(/Refunded− \$5\.00/);
  });

  it('refunds units by line (at most what is left to ship), the gateway pricing them', async () => {
    await page.getByRole('button', { name: 'Refund…' }).click();
    const form = page.getByRole('form', { name: 'Refund' });
    await form.getByLabel('items not shipped').check();
    const line1 = form.getByLabel('Units of line 1 to refund');
    expect(await line1.getAttribute('max')).toBe('2'); // 3 ordered, 1 shipped
    await line1.fill('1');
    await form.getByRole('button', { name: 'Refund', exact: true }).click();
    const firstLine = page.getByRole('region', { name: 'Items' }).locator('tbody tr').first();
    await expect.poll(() => firstLine.locator('td[data-label="Refunded"]').textContent()).toBe('1');
    expect(await firstLine.locator('td[data-label="Fulfilled"]').textContent()).toBe('1');
    const order = await merchantApi(`/orders/${orderId}`);
    expect(order.body.refunds).toHaveLength(2);
    expect(order.body.refunds[1]).toMatchObject({ reason: 'requested_by_customer', lines: [{ line: 1, quantity: 1 }] });
    expect(ui.elsewhere).toEqual([]);
  });

  it('resends a failed delivery and shows its outcome; states agree with the attempts listed', async () => {
    receiver.reply = 200;
    const event = page.locator('li[data-event="order.created"]');
    await event.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => event.getByRole('status').textContent(), { timeout: 30_000 }).toMatch(/Resent: attempt \d+ delivered \(HTTP 200/);
    await expect.poll(() => event.locator('.state').first().textContent()).toBe('succeeded');
    for (const card of await page.locator('[data-delivery]').all()) {
      const listed = await card.locator('tbody tr').count();
      const said = await card.locator('.delivery-head .muted').textContent();
      expect(said).toMatch(new RegExp(`^${listed} attempts?`));
      if (listed > 0) expect(await card.textContent()).not.toMatch(/Not attempted|Queued: the first attempt/);
    }
    await ui.shoot('order-resent');
  });

  it('asks in the page before canceling; "Keep" leaves the order as it was', async () => {
    await page.getByRole('button', { name: 'Cancel' }).click();
    const ask = page.getByRole('group', { name: 'Confirm: Cancel' });
    expect(await ask.textContent()).toMatch(/Cancel what is not yet shipped\?/);
    await ask.getByRole('button', { name: 'Keep' }).click();
    expect(await page.getByTestId('order-status').textContent()).toBe('partially_fulfilled');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toMatch(/canceled|fulfilled/);
    expect(await page.getByRole('button', { name: 'Refund…' }).isEnabled()).toBe(true);
    expect(ui.elsewhere).toEqual([]);
  });
});
