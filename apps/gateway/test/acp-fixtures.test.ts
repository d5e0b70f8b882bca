/** The vendored ACP documents are unchanged copies of the official ones (found as support/official-acp.ts says; always in CI). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACP_FIXTURES, acpWebhookEventValidator, feedApiOperations, feedSchemaValidator } from './support/acp-schemas.js';
import { maySkipDriftCheck, officialAcpCandidates, officialAcpDir } from './support/official-acp.js';

const FILES = {
  'schema.feed.json': '2026-04-17/json-schema/schema.feed.json',
  'schema.agentic_checkout.json': '2026-04-17/json-schema/schema.agentic_checkout.json',
  'openapi.feed.yaml': '2026-04-17/openapi/openapi.feed.yaml',
  'openapi.agentic_checkout_webhook.yaml': '2026-04-17/openapi/openapi.agentic_checkout_webhook.yaml',
  LICENSE: 'LICENSE',
  NOTICE: 'NOTICE',
};

describe.skipIf(maySkipDriftCheck)('vendored ACP 2026-04-17 documents', () => {
  it.each(Object.entries(FILES))('%s is byte for byte the official copy', (file, official) => {
    expect(officialAcpDir, `no official ACP copy at ${officialAcpCandidates.join(', ')} (set ACP_OFFICIAL_DIR)`).toBeDefined();
    expect(readFileSync(join(ACP_FIXTURES, file), 'utf8')).toBe(readFileSync(join(officialAcpDir!, official), 'utf8'));
  });
});

describe('validators built from them', () => {
  it('accept the official examples and refuse what the schemas forbid', () => {
    const event = acpWebhookEventValidator();
    const example = { type: 'order_update', data: { type: 'order', id: 'ord_1', checkout_session_id: 'cs_1', permalink_url: 'https://m.example/orders/1', status: 'processing' } };
    expect(event(example), JSON.stringify(event.errors)).toBe(true);
    expect(event({ ...example, data: { ...example.data, permalink_url: undefined } })).toBe(false);
    expect(event({ ...example, data: { ...example.data, surprise: 1 } })).toBe(false);
    const product = feedSchemaValidator('Product');
    expect(product({ id: 'p', variants: [{ id: 'v', title: 'V', price: { amount: 1999, currency: 'USD' } }] })).toBe(true);
    expect(product({ id: 'p', variants: [{ id: 'v', title: 'V', price: { amount: 19.99, currency: 'USD' } }] })).toBe(false);
    const operations = feedApiOperations();
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(['GET /feeds/{id}', 'GET /feeds/{id}/products', 'PATCH /feeds/{id}/products', 'POST /feeds']);
    const patch = operations.find((o) => o.method === 'PATCH')!;
    expect(patch.request!({ products: [] })).toBe(true);
    expect(patch.request!({ products: [{ id: 'p' }] })).toBe(false);
  });
});
