/**
 * An ACP agent's HTTP client for tests: Bearer key, API-Version 2026-04-17, an Idempotency-Key
 * on every POST, and every answer checked against the official ACP documents — the JSON Schema
 * always, and the OpenAPI document's own schemas wherever that document can express the answer.
 * Two defects of the 2026-04-17 OpenAPI file: its Error lacks the `supported_versions` of version
 * errors, and its CheckoutSessionBase forbids (`additionalProperties: false`) the `order` that its
 * CheckoutSessionWithOrder requires, so that schema matches no object
 * (acp-completion-schema.test.ts): a session with an order is checked there as its two halves,
 * the session without `order` against CheckoutSession and the `order` against Order.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
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

/** The official OpenAPI document's schema `name` (for tests about that document). */
export const openApiSchema = (name: string): ValidateFunction => validator(`acp-openapi#/components/schemas/${name}`);
/** The official JSON Schema's `$defs/name`. */
export const jsonSchema = (name: string): ValidateFunction => validator(`acp-json-schema#/$defs/${name}`);

/** Asserts `body` is a valid `name` of the official JSON Schema (and of the OpenAPI document as far as it can say). */
export function expectOfficial(name: string, body: unknown): void {
  const json = jsonSchema(name);
  expect(json(body), `${name} (JSON Schema): ${JSON.stringify(json.errors)}\n${JSON.stringify(body)}`).toBe(true);
  const b = body as Record<string, unknown>;
  if (name === 'DiscoveryResponse' || 'supported_versions' in b) return; // not in the OpenAPI document
  const halves: [string, unknown][] = 'order' in b || name === 'CheckoutSessionWithOrder'
    ? [['CheckoutSession', Object.fromEntries(Object.entries(b).filter(([field]) => field !== 'order'))], ['Order', b.order]]
    : [[name, body]];
  for (const [schema, value] of halves) {
    const oa = openApiSchema(schema);
    expect(oa(value), `${name} as ${schema} (OpenAPI): ${JSON.stringify(oa.errors)}`).toBe(true);
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

/**
 * `GET /.well-known/acp.json` with headers fetch() will not send as given (`Host`), over node:http;
 * the answer is validated like every other (DiscoveryResponse, or Error).
 */
export function discoverWith(baseUrl: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const sent = request(`${baseUrl}/.well-known/acp.json`, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          const body = text ? JSON.parse(text) : undefined;
          expectOfficial(res.statusCode === 200 ? 'DiscoveryResponse' : 'Error', body);
          resolve({ status: res.statusCode!, headers: res.headers, body });
        } catch (error) {
          reject(error);
        }
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** An ACP address complete enough to ship to (San Francisco: 7.25% tax in the default table). */
export const SF = { name: 'Ada Lovelace', line_one: '1 Market St', city: 'San Francisco', state: 'CA', country: 'US', postal_code: '94105' };

/** A minimal create request for these items (one entry per id, no quantity: 1 each). */
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
