/**
 * An agent plays the whole ACP 2026-04-17 checkout over real HTTP, as the "Show" asks
 * (the webhook and feed legs are assembled by the integrator): discover → create → add the
 * address → choose shipping → complete with a test token → cancel a second session. Every
 * answer is validated against the official schemas (test/support/acp.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let agent: AcpAgent;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 10.67, quantity: 20 }]), stocked('lamp', [{ sku: 'lamp-brass', price: 30, quantity: 5 }])]);
  agent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
});

afterAll(() => gateway?.close());

describe('an agent checks out through the ACP profile', () => {
  it('discovers, creates, adds the address, chooses shipping, pays with a test token; cancels another session', async () => {
    const discovery = await agent.discover();
    expect(discovery.status).toBe(200);
    expect(discovery.body.api_base_url).toBe(`${gateway.url}/acp`);
    const base = discovery.body.api_base_url as string;
    expect(base.startsWith(gateway.url)).toBe(true);

    const created = await agent.create(createBody(['chair-oak', 'chair-oak', 'lamp-brass']));
    expect(created.status).toBe(201);
    const session = created.body;
    expect(session.status).toBe('not_ready_for_payment');
    expect(session.line_items.map((l: { item: { id: string }; quantity: number }) => [l.item.id, l.quantity])).toEqual([['chair-oak', 2], ['lamp-brass', 1]]);
    expect(session.messages.map((m: { code: string; param: string }) => [m.code, m.param])).toEqual([
      ['missing', '$.fulfillment_details.address'],
      ['missing', '$.selected_fulfillment_options'],
    ]);

    const addressed = await agent.update(session.id, { fulfillment_details: { name: 'Ada Lovelace', email: 'ada@example.com', address: SF } });
    expect(addressed.status).toBe(200);
    expect(addressed.body.status).toBe('not_ready_for_payment');
    const option = addressed.body.fulfillment_options[0];
    expect(option).toMatchObject({ type: 'shipping', id: 'standard' });

    const shipped = await agent.update(session.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: option.id, item_ids: ['chair-oak', 'lamp-brass'] }] });
    expect(shipped.body.status).toBe('ready_for_payment');
    expect(shipped.body.messages).toEqual([]);
    // 2 × 10.67 + 30 = 51.34 (free shipping from 50), tax 7.25% = 3.72
    expect(shipped.body.totals).toEqual([
      { type: 'items_base_amount', display_text: 'Item(s) total', amount: 5134 },
      { type: 'subtotal', display_text: 'Subtotal', amount: 5134 },
      { type: 'fulfillment', display_text: 'Shipping', amount: 0 },
      { type: 'tax', display_text: 'Tax', amount: 372 },
      { type: 'total', display_text: 'Total', amount: 5506 },
    ]);

    const completed = await agent.complete(session.id, payWith('spt_test_approve', { buyer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } }));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.status).toBe('completed');
    expect(completed.body.order).toMatchObject({ id: expect.stringMatching(/^ord_/), checkout_session_id: session.id, permalink_url: expect.stringMatching(/^http/) });

    const second = await agent.create(createBody(['lamp-brass']));
    const canceled = await agent.cancel(second.body.id);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
  });
});
