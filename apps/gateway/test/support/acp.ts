/**
 * An ACP agent's HTTP client for tests: Bearer key, API-Version 2026-04-17, an Idempotency-Key
 * on every POST, and every answer checked against the official ACP documents — the JSON Schema
 * always, and the OpenAPI document's own schemas wherever that document can express the answer
 * (its CheckoutSessionBase forbids the `order` a completed session carries, and its Error lacks
 * the `supported_versions` of version errors: two defects of the 2026-04-17 OpenAPI file).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(require('@commerce-gateway/openapi/acp/schema.agentic_checkout.json') as object, 'acp-json-schema');
ajv.addSchema(require('@commerce-gateway/openapi/acp/openapi.agentic_checkout.json') as object, 'acp-openapi');

function validator(ref: string): ValidateFunction {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema ${ref}`);
  return validate;
}

/** Asserts `body` is a valid `name` of the official JSON Schema (and of the OpenAPI document where it can be). */
export function expectOfficial(name: string, body: unknown): void {
  const json = validator(`acp-json-schema#/$defs/${name}`);
  expect(json(body), `${name} (JSON Schema): ${JSON.stringify(json.errors)}\n${JSON.stringify(body)}`).toBe(true);
  const b = body as Record<string, unknown>;
  const openApiCanSay = name !== 'DiscoveryResponse' && !('order' in b) && !('supported_versions' in b) && name !== 'CheckoutSessionWithOrder';
  if (openApiCanSay) {
    const oa = validator(`acp-openapi#/components/schemas/${name}`);
    expect(oa(body), `${name} (OpenAPI): ${JSON.stringify(oa.errors)}`).toBe(true);
  }
}

export interface AcpReply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface AcpCallOptions {
  headers?: Record<string, string | undefined>;
  /** The raw body text (else JSON of `json`). */
  raw?: string;
}

/** A plain ACP call; the answer is validated against the official schema for its status. */
export async function acpCall(url: string, method: string, json: unknown, headers: Record<string, string | undefined>, success: string | undefined, raw?: string): Promise<AcpReply> {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
  if (json !== undefined || raw !== undefined) sent['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers: sent, ...(raw !== undefined ? { body: raw } : json !== undefined ? { body: JSON.stringify(json) } : {}) });
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  if (method !== 'HEAD') {
    if (response.status >= 200 && response.status < 300) {
      if (success) expectOfficial(success, body);
    } else expectOfficial('Error', body);
  }
  return { status: response.status, headers: response.headers, body };
}

/** The five operations as an agent calls them. */
export function acpAgent(baseUrl: string, key: string, defaults: Record<string, string> = {}) {
  const headers = (method: string, extra: AcpCallOptions['headers'] = {}) => ({
    authorization: `Bearer ${key}`,
    'api-version': '2026-04-17',
    ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
    ...defaults,
    ...extra,
  });
  const at = (path: string) => `${baseUrl}/acp/checkout_sessions${path}`;
  return {
    create: (body: unknown, o: AcpCallOptions = {}) => acpCall(at(''), 'POST', body, headers('POST', o.headers), 'CheckoutSession', o.raw),
    get: (id: string, o: AcpCallOptions = {}) => acpCall(at(`/${id}`), 'GET', undefined, headers('GET', o.headers), 'CheckoutSession'),
    update: (id: string, body: unknown, o: AcpCallOptions = {}) => acpCall(at(`/${id}`), 'POST', body, headers('POST', o.headers), 'CheckoutSession', o.raw),
    complete: (id: string, body: unknown, o: AcpCallOptions = {}) => acpCall(at(`/${id}/complete`), 'POST', body, headers('POST', o.headers), 'CheckoutSessionWithOrder', o.raw),
    cancel: (id: string, body?: unknown, o: AcpCallOptions = {}) => acpCall(at(`/${id}/cancel`), 'POST', body, headers('POST', o.headers), 'CheckoutSession', o.raw),
    discover: () => acpCall(`${baseUrl}/.well-known/acp.json`, 'GET', undefined, {}, 'DiscoveryResponse'),
  };
}

export type AcpAgent = ReturnType<typeof acpAgent>;

/** An ACP address complete enough to ship to (San Francisco: 7.25% tax in the default table). */
export const SF = { name: 'Ada Lovelace', line_one: '1 Market St', city: 'San Francisco', state: 'CA', country: 'US', postal_code: '94105' };

/** A minimal create request for these items. */
export const createBody = (ids: string[], extra: Record<string, unknown> = {}) => ({
  line_items: ids.map((id) => ({ id })),
  currency: 'usd',
  capabilities: { interventions: { supported: ['3ds'] } },
  ...extra,
});

/** Complete with one of the test provider's tokens. */
export const payWith = (token: string, extra: Record<string, unknown> = {}) => ({
  payment_data: { handler_id: 'card_tokenized', instrument: { type: 'card', credential: { type: 'spt', token } } },
  ...extra,
});
