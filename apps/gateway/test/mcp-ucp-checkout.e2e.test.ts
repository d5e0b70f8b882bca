/**
 * A UCP platform checks out through MCP, for each release, with the official MCP client against a
 * real gateway whose UCP REST operations do the work: create with a buyer whose saved address is
 * offered → choose it → choose an option → a declined test token (an outcome, nothing ordered) →
 * the approving token → the order; get; cancel; an idempotent create replayed through meta; another
 * merchant's key sees nothing. Every checkout result is validated against the official schemas
 * of its release.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { mcpAgent, textOf, type McpAgent } from './support/mcp.js';
import { checkoutSchemas, schemaProblems, type UcpRelease } from './support/official-ucp.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { catalogFile } from './support/fixtures.js';

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHIPPING = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }, { id: 'express', title: 'Express', prices: { USD: 15 } }] }] };
const HOME = { id: 'home-1', line1: '1 Main St', city: 'Portland', state: 'OR', postal_code: '97201', country: 'US' };
let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('ucpshop', [stocked('chair', [{ sku: 'chair-oak', price: 100, quantity: 50 }])]);
  await gateway.services.shipping.import('ucpshop', SHIPPING);
  await gateway.services.customers.importFile('ucpshop', catalogFile([{ email: 'ada@example.com', name: 'Ada Lovelace', addresses: [HOME] }], 'customers.ndjson'));
  await gateway.importProducts('othershop', [stocked('stool', [{ sku: 'stool-1', price: 10, quantity: 5 }])]);
  key = await gateway.createKey({ merchantIds: ['ucpshop'] });
  otherKey = await gateway.createKey({ merchantIds: ['othershop'] });
  profiles = await startProfileServer();
  profiles.route('/platform/2026-04-08', json(shoppingPlatformProfile('2026-04-08')));
  profiles.route('/platform/2026-01-11', json(shoppingPlatformProfile('2026-01-11')));
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

/** The release's tools as a platform calls them: 2026-04-08 `meta`, 2026-01-11 `_meta.ucp` and `idempotency_key`. */
function tools(release: UcpRelease, agent: McpAgent) {
  const profile = `${profiles.url}/platform/${release}`;
  const modern = release === '2026-04-08';
  const meta = (idempotencyKey?: string) => ({ 'ucp-agent': { profile }, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });
  const requestMeta = modern ? undefined : { ucp: { profile } };
  const run = async (name: string, args: Record<string, unknown>) => {
    const { result, error } = await agent.call(name, args, requestMeta);
    if (error) throw new Error(`${name}: ${error.message} ${JSON.stringify(error.data)}`);
    expect(textOf(result!)).toEqual(result!.structuredContent);
    return result!.structuredContent as Body;
  };
  const pay = (token: string) => {
    const instrument = { id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token } };
    return modern
      ? { payment: { instruments: [{ ...instrument, display: { brand: 'visa', last_digits: '4242' }, selected: true }] } }
      : { selected_instrument_id: 'instr_1', instruments: [{ ...instrument, brand: 'visa', last_digits: '4242' }] };
  };
  return {
    create: (checkout: Body, idempotencyKey?: string) => run('create_checkout', modern ? { meta: meta(idempotencyKey), checkout } : { checkout }),
    get: (id: string) => run('get_checkout', modern ? { meta: meta(), id } : { id }),
    update: (id: string, checkout: Body) => run('update_checkout', modern ? { meta: meta(), id, checkout } : { id, checkout }),
    complete: (id: string, token: string, idempotencyKey = randomUUID()) =>
      run('complete_checkout', modern ? { meta: meta(idempotencyKey), id, checkout: pay(token) } : { id, payment: pay(token), idempotency_key: idempotencyKey }),
    cancel: (id: string) => run('cancel_checkout', modern ? { meta: meta(randomUUID()), id } : { id, idempotency_key: randomUUID() }),
  };
}

const valid = (release: UcpRelease, body: Body): Body => {
  expect(schemaProblems(release, checkoutSchemas(release), body)).toEqual([]);
  return body;
};
const errorsOf = (body: Body) => (body.messages ?? []).filter((message: Body) => message.type === 'error');

describe.each(['2026-04-08', '2026-01-11'] as const)('UCP %s checkout over MCP', (release) => {
  let agent: McpAgent;
  beforeAll(async () => {
    agent = await mcpAgent(gateway.url, key, { 'ucp-agent': `profile="${profiles.url}/platform/${release}", version="${release}"` });
  });
  afterAll(() => agent?.close());

  it('creates, routes to the saved address, chooses an option, is declined, then places the order', async () => {
    const ucp = tools(release, agent);
    const chair = [{ item: { id: 'chair-oak' }, quantity: 2 }];
    const buyer = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
    const created = valid(release, await ucp.create({ line_items: chair, buyer }));
    expect(created).toMatchObject({ status: 'incomplete', ucp: { version: release } });
    const method = created.fulfillment.methods[0];
    expect(method.destinations).toEqual([expect.objectContaining({ id: 'home-1', street_address: '1 Main St' })]);

    const routed = valid(release, await ucp.update(created.id, { line_items: chair, buyer, fulfillment: { methods: [{ id: method.id, type: 'shipping', line_item_ids: ['li_1'], selected_destination_id: 'home-1' }] } }));
    const group = routed.fulfillment.methods[0].groups[0];
    expect(group.options.map((option: Body) => option.id)).toEqual(['standard', 'express']);
    const ready = valid(
      release,
      await ucp.update(created.id, { line_items: chair, buyer, fulfillment: { methods: [{ id: method.id, type: 'shipping', line_item_ids: ['li_1'], selected_destination_id: 'home-1', groups: [{ id: group.id, selected_option_id: 'express' }] }] } }),
    );
    expect(ready.status).toBe('ready_for_complete');

    const declined = valid(release, await ucp.complete(created.id, 'fail_token'));
    expect(declined.order).toBeUndefined();
    expect(errorsOf(declined)).toEqual([expect.objectContaining({ code: 'payment_failed' })]);

    const completed = valid(release, await ucp.complete(created.id, 'success_token'));
    expect(completed).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/) } });
    const read = valid(release, await ucp.get(created.id));
    expect(read.order.id).toBe(completed.order.id);
    expect(await gateway.services.orders.get('ucpshop', completed.order.id)).toMatchObject({ shipping_address: { line1: '1 Main St' }, customer: { email: 'ada@example.com' } });
  });

  it('cancels, replays a create sent with the same meta idempotency-key (2026-04-08), and never shows another merchant a checkout', async () => {
    const ucp = tools(release, agent);
    const chair = [{ item: { id: 'chair-oak' }, quantity: 1 }];
    const canceled = valid(release, await ucp.cancel((await ucp.create({ line_items: chair })).id));
    expect(canceled.status).toBe('canceled');

    if (release === '2026-04-08') {
      const idempotencyKey = randomUUID();
      const first = await ucp.create({ line_items: chair }, idempotencyKey);
      expect((await ucp.create({ line_items: chair }, idempotencyKey)).id).toBe(first.id);
    }

    const mine = await ucp.create({ line_items: chair, buyer: { email: 'ada@example.com' } });
    const rival = await mcpAgent(gateway.url, otherKey, { 'ucp-agent': `profile="${profiles.url}/platform/${release}", version="${release}"` });
    try {
      const profile = `${profiles.url}/platform/${release}`;
      const args = release === '2026-04-08' ? { meta: { 'ucp-agent': { profile } }, id: mine.id } : { id: mine.id };
      const { result, error } = await rival.call('get_checkout', args, release === '2026-04-08' ? undefined : { ucp: { profile } });
      const seen = error ? error.data : result!.structuredContent;
      expect(JSON.stringify(seen)).not.toContain('chair');
      expect(JSON.stringify(seen)).toContain('not_found');
    } finally {
      await rival.close();
    }
  });
});
