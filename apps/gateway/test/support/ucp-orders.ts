/**
 * Orders placed "through UCP" for the UCP order tests: a checkout completed over our HTTP API whose
 * session is made a UCP session first (protocol_state set with SQL, in the shape UCP checkout
 * writes: protocol, version, agent_profile, order_webhook_url), and a delivery worker that sends
 * UCP order webhooks signed with the gateway's keys.
 */
import { expect } from 'vitest';
import { ucpWebhookFormat } from '../../src/ucp/webhooks/ucp-order-webhook.js';
import type { UcpVersion } from '../../src/ucp/ucp-version.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../../src/webhooks/webhook-store.js';
import { checkoutCalls, SF_ADDRESS, stocked, type CheckoutCalls } from './checkout.js';
import type { TestGateway } from './test-gateway.js';

export const PLATFORM_PROFILE = 'https://platform.example/.well-known/ucp';

let shops = 0;

/** A merchant selling `shoes` (50 in stock, 99 USD), and checkout calls with its key. */
export async function ucpShop(gateway: TestGateway, prefix = 'ucp-shop'): Promise<{ merchantId: string; calls: CheckoutCalls; key: string }> {
  const merchantId = `${prefix}-${++shops}-${Date.now().toString(36)}`;
  await gateway.importProducts(merchantId, [stocked('shoes', [{ sku: 'shoes-42', price: 99, quantity: 50 }], { title: 'Running Shoes' })]);
  const key = await gateway.createKey({ merchantIds: [merchantId] });
  return { merchantId, calls: checkoutCalls(gateway.url, key), key };
}

/** An order of 2 shoes; through a UCP session of `ucp.version` when `ucp` is given (`webhookUrl`: the platform's order webhook). */
export async function placedOrder(gateway: TestGateway, calls: CheckoutCalls, ucp?: { version: UcpVersion; webhookUrl?: string; agentProfile?: string }): Promise<string> {
  const created = await calls.create({ items: [{ product_id: 'shoes', quantity: 2 }], shipping_address: SF_ADDRESS });
  expect(created.status).toBe(201);
  const id = created.body.checkout_session.id;
  if (ucp) {
    const state = { protocol: 'ucp', version: ucp.version, agent_profile: ucp.agentProfile ?? PLATFORM_PROFILE, ...(ucp.webhookUrl ? { order_webhook_url: ucp.webhookUrl } : {}) };
    await gateway.db.prisma.checkoutSession.update({ where: { id }, data: { protocolState: state } });
  }
  const completed = await calls.complete(id);
  expect(completed.status).toBe(200);
  return completed.body.checkout_session.order!.id;
}

/** A started worker sending UCP webhooks signed with the gateway's current key (stop it after the test). */
export function ucpWorker(gateway: TestGateway, options: { allowPrivateTargets?: boolean } = {}): DeliveryWorker {
  const worker = new DeliveryWorker({
    store: new WebhookStore(gateway.db),
    allowPrivateTargets: options.allowPrivateTargets ?? true,
    formats: { ucp: ucpWebhookFormat({ signer: () => gateway.services.ucpSigningKeys.signer, businessProfileUrl: `${gateway.url}/.well-known/ucp` }) },
    schedule: [0, 50, 50, 50],
    pollIntervalMs: 10,
    timeoutMs: 2000,
    random: () => 0.5,
  });
  worker.start();
  return worker;
}
