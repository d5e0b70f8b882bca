/**
 * An agent checks out through ACP's MCP binding (mcp-binding.md) with the official MCP client SDK
 * against a real gateway: the five tools listed with bundled schemas; create → update → complete
 * (the test payment provider) → get, every result the REST body, checked against the official
 * ACP schemas; an idempotent replay through `meta.idempotency_key`; ACP errors as JSON-RPC -32000
 * with ACP's Error in `error.data`; a malformed envelope as -32602 with nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBody, expectOfficial, payWith, SF } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { mcpAgent, textOf, type McpAgent } from './support/mcp.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const META = { api_version: '2026-04-17' };
let gateway: TestGateway;
let agent: McpAgent;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 10.67, quantity: 20 }]), stocked('lamp', [{ sku: 'lamp-brass', price: 30, quantity: 5 }])]);
  agent = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
});

afterAll(async () => {
  await agent?.close();
  await gateway?.close();
});

describe('ACP over MCP', () => {
  it('lists the five checkout tools with meta, id and payload, the payload schemas bundled', async () => {
    const { tools } = await agent.client.listTools();
    const acp = tools.filter((tool) => tool.name.endsWith('_checkout_session'));
    expect(acp.map((tool) => tool.name).sort()).toEqual(['cancel_checkout_session', 'complete_checkout_session', 'create_checkout_session', 'get_checkout_session', 'update_checkout_session']);
    const create = acp.find((tool) => tool.name === 'create_checkout_session')!;
    expect(create.inputSchema.required).toEqual(['meta', 'payload']);
    expect(create.inputSchema.properties!.payload).toEqual({ $ref: '#/$defs/CheckoutSessionCreateRequest' });
    expect(Object.keys(create.inputSchema.$defs as object)).toContain('Address');
    expect(JSON.stringify(create.inputSchema)).not.toMatch(/"\$ref":"(?!#\/\$defs\/)/); // self-contained
    const get = acp.find((tool) => tool.name === 'get_checkout_session')!;
    expect(get.inputSchema.required).toEqual(['meta', 'id']);
    expect(get.inputSchema.properties).not.toHaveProperty('payload');
    expect(acp.find((tool) => tool.name === 'cancel_checkout_session')!.inputSchema.required).toEqual(['meta', 'id']);
  });

  it('creates, updates, completes with a test token and gets the session; every result is the REST body', async () => {
    const created = await agent.call('create_checkout_session', { meta: { ...META, idempotency_key: randomUUID() }, payload: createBody(['chair-oak', 'chair-oak', 'lamp-brass']) });
    const session = created.result!.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expectOfficial('CheckoutSession', session);
    expect(textOf(created.result!)).toEqual(session);
    expect(created.result!.id).toBe(session.id); // the binding's `result` is the body itself
    expect(session.status).toBe('not_ready_for_payment');

    const addressed = await agent.call('update_checkout_session', { meta: META, id: session.id, payload: { fulfillment_details: { name: 'Ada Lovelace', email: 'ada@example.com', address: SF } } });
    expect(addressed.error).toBeUndefined();
    const option = (addressed.result!.structuredContent as any).fulfillment_options[0]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const shipped = await agent.call('update_checkout_session', {
      meta: { ...META, idempotency_key: randomUUID() },
      id: session.id,
      payload: { selected_fulfillment_options: [{ type: 'shipping', option_id: option.id, item_ids: ['chair-oak', 'lamp-brass'] }] },
    });
    expect(shipped.result!.structuredContent).toMatchObject({ status: 'ready_for_payment' });

    const completed = await agent.call('complete_checkout_session', { meta: { ...META, idempotency_key: randomUUID() }, id: session.id, payload: payWith('spt_test_approve', { buyer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } }) });
    expect(completed.error).toBeUndefined();
    const done = completed.result!.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expectOfficial('CheckoutSessionWithOrder', done);
    expect(done).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/), checkout_session_id: session.id } });

    const got = await agent.call('get_checkout_session', { meta: META, id: session.id });
    expect(got.result!.structuredContent).toMatchObject({ id: session.id, status: 'completed' });
    expectOfficial('order' in got.result!.structuredContent! ? 'CheckoutSessionWithOrder' : 'CheckoutSession', got.result!.structuredContent);
  });

  it('replays a create sent twice with the same meta.idempotency_key: one session', async () => {
    const meta = { ...META, idempotency_key: randomUUID() };
    const first = await agent.call('create_checkout_session', { meta, payload: createBody(['lamp-brass']) });
    const second = await agent.call('create_checkout_session', { meta, payload: createBody(['lamp-brass']) });
    expect((second.result!.structuredContent as { id: string }).id).toBe((first.result!.structuredContent as { id: string }).id);
    const conflict = await agent.call('create_checkout_session', { meta, payload: createBody(['chair-oak']) });
    expect(conflict.error?.code).toBe(-32000);
    expect(conflict.error?.data).toMatchObject({ type: 'invalid_request', code: 'idempotency_conflict' });
  });

  it('answers an ACP error as -32000 with the ACP Error in error.data', async () => {
    const missing = await agent.call('get_checkout_session', { meta: META, id: 'cs_does_not_exist' });
    expect(missing.error?.code).toBe(-32000);
    expectOfficial('Error', missing.error!.data);
    expect(missing.error!.data).toMatchObject({ type: 'invalid_request', code: expect.any(String), message: expect.any(String) });
    // On the wire, error.message is ACP's message as is (the client SDK adds its "MCP error <code>: ").
    expect(missing.error!.message).toBe(`MCP error -32000: ${(missing.error!.data as { message: string }).message}`);

    const unknownProduct = await agent.call('create_checkout_session', { meta: META, payload: createBody(['no-such-sku']) });
    expect(unknownProduct.error?.code).toBe(-32000);
    expectOfficial('Error', unknownProduct.error!.data);

    const badPayload = await agent.call('create_checkout_session', { meta: META, payload: { line_items: 'chairs', currency: 'usd' } });
    expect(badPayload.error?.code).toBe(-32000);
    expect(badPayload.error!.data).toMatchObject({ type: 'invalid_request' });

    const badVersion = await agent.call('get_checkout_session', { meta: { api_version: '1999-01-01' }, id: 'cs_x' });
    expect(badVersion.error?.code).toBe(-32000);
    expect(badVersion.error!.data).toMatchObject({ code: 'unsupported_api_version' });
  });

  it('refuses a malformed envelope or an unknown tool with -32602, and creates nothing', async () => {
    const before = await gateway.db.prisma.checkoutSession.count();
    const cases: [string, Record<string, unknown>][] = [
      ['create_checkout_session', { payload: createBody(['lamp-brass']) }], // no meta
      ['create_checkout_session', { meta: {}, payload: createBody(['lamp-brass']) }], // no api_version
      ['create_checkout_session', { meta: 'v1', payload: createBody(['lamp-brass']) }],
      ['create_checkout_session', { meta: META, payload: [1, 2] }],
      ['create_checkout_session', { meta: META }],
      ['get_checkout_session', { meta: META }], // no id
      ['update_checkout_session', { meta: { ...META, idempotency_key: 7 }, id: 'cs_1', payload: {} }],
      ['no_such_tool', { meta: META }],
    ];
    for (const [name, args] of cases) {
      const { error } = await agent.call(name, args);
      expect(error?.code, `${name} ${JSON.stringify(args)}`).toBe(ErrorCode.InvalidParams);
    }
    const after = await gateway.db.prisma.checkoutSession.count();
    expect(after).toEqual(before);
  });
});
