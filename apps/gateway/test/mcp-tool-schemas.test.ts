/**
 * Every tool's input schema is served self-contained (ACP mcp-binding.md: "resolve and bundle all
 * `$ref` targets before serving tool schemas"): a JSON Schema 2020-12 validator with no other
 * schema loaded compiles it, and it accepts the bindings' own example arguments.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { acpTools } from '../src/mcp/acp-tools.js';
import { ucpTools } from '../src/mcp/ucp-tools.js';

function fresh(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}

const all = [
  ...acpTools().map((tool) => ['ACP', tool] as const),
  ...ucpTools('2026-04-08').map((tool) => ['UCP 2026-04-08', tool] as const),
  ...ucpTools('2026-01-11').map((tool) => ['UCP 2026-01-11', tool] as const),
];

describe('tool input schemas', () => {
  it.each(all.map(([protocol, tool]) => [protocol, tool.definition.name, tool]))('%s %s compiles alone', (_protocol, _name, tool) => {
    expect(() => fresh().compile(tool.definition.inputSchema)).not.toThrow();
  });

  it("accept an ACP create call (meta per mcp-binding.md, payload per CheckoutSessionCreateRequest)", () => {
    const create = acpTools().find((tool) => tool.definition.name === 'create_checkout_session')!;
    const validate = fresh().compile(create.definition.inputSchema);
    const args = { meta: { api_version: '2026-04-17', idempotency_key: 'idem_1' }, payload: { line_items: [{ id: 'item_123' }], currency: 'usd', capabilities: {} } };
    expect(validate(args), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ meta: { api_version: '2026-04-17' }, payload: { line_items: 'x', currency: 'usd' } })).toBe(false);
  });

  it("accept UCP 2026-04-08's search example (catalog/mcp.md arguments)", () => {
    const search = ucpTools('2026-04-08').find((tool) => tool.definition.name === 'search_catalog')!;
    const validate = fresh().compile(search.definition.inputSchema);
    const args = { meta: { 'ucp-agent': { profile: 'https://platform.example/profile' } }, catalog: { query: 'blue running shoes' } };
    expect(validate(args), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ meta: {}, catalog: { query: 'x' } })).toBe(false);
  });
});
