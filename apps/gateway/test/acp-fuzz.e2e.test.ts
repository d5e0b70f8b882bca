/**
 * Property-based ACP requests — near-valid, boundary and malformed — against a real gateway:
 * whatever an agent sends, no 5xx, and every answer valid against the official schemas (the
 * support client checks each one). FUZZ_RUNS sets the runs per operation (40 by default).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpAgent, SF, type AcpAgent } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

let gateway: TestGateway;
let agent: AcpAgent;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [
    stocked('p-0', [{ sku: 'p-0-a', quantity: 100_000 }, { sku: 'p-0-b', quantity: 3 }]),
    stocked('p-1', [{ sku: 'p-1-a', quantity: 100_000, requires_shipping: false }]),
    stocked('p-2', [{ sku: 'p-2-eur', currency: 'EUR', quantity: 100_000 }]),
  ]);
  agent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
});

afterAll(() => gateway?.close());

const itemId = fc.oneof(fc.constantFrom('p-0', 'p-0-a', 'p-0-b', 'p-1-a', 'p-2-eur', 'nope', ''), fc.string({ maxLength: 8 }));
const item = fc.oneof(fc.record({ id: itemId }), fc.record({ id: itemId, unit_amount: fc.integer() }), fc.record({ id: itemId, quantity: fc.integer() }), fc.anything());
const address = fc.oneof(fc.constant(SF), fc.record({ name: fc.string(), line_one: fc.string(), city: fc.string(), state: fc.string(), country: fc.string({ maxLength: 3 }), postal_code: fc.string() }), fc.anything());
const capabilities = fc.oneof(fc.constant({ interventions: { supported: ['3ds'] } }), fc.record({ interventions: fc.record({ supported: fc.array(fc.constantFrom('3ds', 'biometric', 'address_verification', 'x')) }) }), fc.anything());
const createBody = fc.record(
  {
    line_items: fc.oneof(fc.array(item, { maxLength: 4 }), fc.anything()),
    currency: fc.oneof(fc.constantFrom('usd', 'USD', 'eur', ''), fc.anything()),
    capabilities,
    fulfillment_details: fc.oneof(fc.record({ address }), fc.record({ email: fc.string(), name: fc.string() })),
    buyer: fc.oneof(fc.record({ email: fc.constantFrom('a@b.co', 'not-an-email') }), fc.anything()),
  },
  { requiredKeys: [] },
);
const updateBody = fc.record(
  {
    line_items: fc.array(item, { maxLength: 3 }),
    fulfillment_details: fc.record({ address }),
    selected_fulfillment_options: fc.array(fc.record({ type: fc.constantFrom('shipping', 'digital', 'pickup'), option_id: fc.constantFrom('standard', 'digital', 'x'), item_ids: fc.array(fc.string()) }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const completeBody = fc.record(
  {
    payment_data: fc.oneof(
      fc.record({ handler_id: fc.constantFrom('card_tokenized', 'x'), instrument: fc.record({ type: fc.constant('card'), credential: fc.record({ type: fc.constant('spt'), token: fc.constantFrom('spt_test_approve', 'spt_test_decline', 'spt_test_3ds', 'x') }) }) }),
      fc.record({ purchase_order_number: fc.string() }),
      fc.anything(),
    ),
    authentication_result: fc.oneof(fc.record({ outcome: fc.constantFrom('authenticated', 'denied') }), fc.anything()),
  },
  { requiredKeys: [] },
);

async function openSession(): Promise<string> {
  const reply = await agent.create({ line_items: [{ id: 'p-0-a' }], currency: 'usd', capabilities: { interventions: { supported: ['3ds'] } }, fulfillment_details: { address: SF } });
  return reply.body.id as string;
}

describe('ACP requests an agent might send', () => {
  it('create: never a 5xx, every answer official', async () => {
    await fc.assert(fc.asyncProperty(createBody, async (body) => {
      expect((await agent.create(body)).status).toBeLessThan(500);
    }), { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) });
  }, 120_000);

  it('update and complete: never a 5xx, every answer official', async () => {
    await fc.assert(fc.asyncProperty(updateBody, completeBody, async (update, complete) => {
      const id = await openSession();
      expect((await agent.update(id, update)).status).toBeLessThan(500);
      expect((await agent.complete(id, complete)).status).toBeLessThan(500);
      expect((await agent.get(id)).status).toBe(200);
    }), { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) });
  }, 240_000);

  it('raw bodies that are not the JSON expected: never a 5xx', async () => {
    const id = await openSession();
    for (const raw of ['', 'null', '[]', '"x"', '{', '{"line_items":', '1e999', JSON.stringify({ a: '\u0000' })]) {
      expect((await agent.create(undefined, { raw })).status).toBe(400);
      expect((await agent.update(id, undefined, { raw })).status).toBeLessThan(500);
    }
  });
});
