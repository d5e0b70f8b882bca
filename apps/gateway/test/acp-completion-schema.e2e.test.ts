/**
 * How completions are validated. The official `CheckoutSessionWithOrder` is the `allOf` of
 * `CheckoutSessionBase` and `{order}` with `order` required. In the OpenAPI document the base has
 * `additionalProperties: false` and no `order` property, so no object matches it as written: one with
 * an `order` breaks the base, one without breaks `required`. The JSON Schema's base lists `order`, so
 * its version can be met: the gateway checks every completion against that one (acp-operations.ts,
 * acp-responses.ts), and the tests' agent also checks the OpenAPI document's two halves — the session
 * without `order` as its `CheckoutSession`, the `order` as its `Order` (support/acp.ts).
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseSchemaOf } from '../src/acp/acp-operations.js';
import { acpValidator } from '../src/acp/acp-schemas.js';
import { acpAgent, createBody, jsonSchema, openApiSchema, payWith, SF } from './support/acp.js';
import { call } from './support/http.js';
import { stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const require = createRequire(import.meta.url);
let gateway: TestGateway;
let completion: Record<string, unknown>;
let withoutOrder: Record<string, unknown>;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 10, quantity: 5 }])]);
  const agent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
  const s = await agent.create(createBody(['chair-oak'], { fulfillment_details: { address: SF } }));
  await agent.update(s.body.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: [] }] });
  const done = await agent.complete(s.body.id, payWith('spt_test_approve')); // checked by the agent as described above
  expect(done.status).toBe(200);
  completion = done.body;
  withoutOrder = Object.fromEntries(Object.entries(completion).filter(([field]) => field !== 'order'));
});

afterAll(() => gateway?.close());

const keywordsOf = (validate: ReturnType<typeof jsonSchema>) => (validate.errors ?? []).map((e) => `${e.keyword}:${JSON.stringify(e.params)}`);

describe("the OpenAPI document's CheckoutSessionWithOrder", () => {
  it('matches no object as written: its base forbids the order its second half requires', () => {
    const { components } = require('@commerce-gateway/openapi/acp/openapi.agentic_checkout.json') as { components: { schemas: Record<string, any> } }; // eslint-disable-line @typescript-eslint/no-explicit-any
    const base = components.schemas.CheckoutSessionBase;
    const [first, second] = components.schemas.CheckoutSessionWithOrder.allOf;
    expect(first.$ref).toBe('#/components/schemas/CheckoutSessionBase');
    expect(base.additionalProperties).toBe(false);
    expect(Object.keys(base.properties)).not.toContain('order');
    expect(second.required).toEqual(['order']);

    const official = openApiSchema('CheckoutSessionWithOrder');
    expect(official(completion)).toBe(false); // with its order: the base refuses the field
    expect(keywordsOf(official)).toContain('additionalProperties:{"additionalProperty":"order"}');
    expect(official(withoutOrder)).toBe(false); // without: the order is missing
    expect(keywordsOf(official)).toContain('required:{"missingProperty":"order"}');
  });

  it('is met by its two halves: the session without order is a CheckoutSession, the order an Order', () => {
    expect(openApiSchema('CheckoutSession')(withoutOrder), JSON.stringify(openApiSchema('CheckoutSession').errors)).toBe(true);
    expect(openApiSchema('Order')(completion.order), JSON.stringify(openApiSchema('Order').errors)).toBe(true);
  });
});

describe("the JSON Schema's CheckoutSessionWithOrder, which the gateway validates completions with", () => {
  it('takes a completion, and refuses one without its order or with a field ACP does not have', () => {
    expect(responseSchemaOf('acp.completeCheckoutSession')).toBe('CheckoutSessionWithOrder');
    for (const validate of [jsonSchema('CheckoutSessionWithOrder'), acpValidator('CheckoutSessionWithOrder')]) {
      expect(validate(completion), JSON.stringify(validate.errors)).toBe(true);
      expect(validate(withoutOrder)).toBe(false);
      expect(keywordsOf(validate)).toContain('required:{"missingProperty":"order"}');
      expect(validate({ ...completion, surprise: 1 })).toBe(false); // additionalProperties: false still holds
    }
  });

  it('is what the served document says completions are checked against', async () => {
    const served = await call(`${gateway.url}/acp/openapi.json`);
    expect(served.body.info.description).toMatch(/Completions are checked against the JSON Schema's `CheckoutSessionWithOrder`/);
    expect(served.body.info.description).toMatch(/matches no object/);
  });
});
