/**
 * A UCP platform's REST calls against a test gateway, for one release: the headers every request
 * sends (`UCP-Agent` with its profile URL, `request-id`, an `idempotency-key` on POST and PUT), the
 * five checkout operations and the order read and update; the payment bodies of each release; and
 * checks of answers against the release's official schemas (support/official-ucp.ts).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { call, type Reply } from './http.js';
import { checkoutSchemas, ERROR_RESPONSE, schemaProblems, type UcpRelease } from './official-ucp.js';

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface PlatformOptions {
  gatewayUrl: string;
  key: string;
  /** The platform profile's URL (`UCP-Agent: profile="…"`). */
  profile: string;
  /** Headers every request adds (e.g. `request-signature`). */
  extra?: Record<string, string>;
}

export function ucpPlatform({ gatewayUrl, key, profile, extra = {} }: PlatformOptions) {
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(`${gatewayUrl}/ucp${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profile}"`, 'request-id': randomUUID(), ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }), ...extra, ...headers },
      ...(body !== undefined ? { json: body } : {}),
    });
  return {
    send,
    create: (body: unknown, headers?: Record<string, string>) => send('POST', '/checkout-sessions', body, headers),
    get: (id: string) => send('GET', `/checkout-sessions/${id}`),
    update: (id: string, body: unknown, headers?: Record<string, string>) => send('PUT', `/checkout-sessions/${id}`, body, headers),
    complete: (id: string, body: unknown, headers?: Record<string, string>) => send('POST', `/checkout-sessions/${id}/complete`, body, headers),
    cancel: (id: string) => send('POST', `/checkout-sessions/${id}/cancel`, {}),
    order: (id: string) => send('GET', `/orders/${id}`),
    updateOrder: (id: string, body: unknown) => send('PUT', `/orders/${id}`, body),
  };
}

/** A credential paid with: 2026-04-08 in `payment.instruments`, 2026-01-11 as `payment_data`. */
export function payWith(release: UcpRelease, credential: Record<string, unknown>): Body {
  const base = { id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', credential };
  if (release === '2026-01-11') return { payment_data: { ...base, brand: 'visa', last_digits: '4242' } };
  return { payment: { instruments: [{ ...base, display: { brand: 'visa', last_digits: '4242' }, selected: true }] } };
}

export const token = (value: string) => ({ type: 'token', token: value });
export const card = (number: string) => ({ type: 'card', card_number_type: 'fpan', number, expiry_month: 12, expiry_year: 2030, cvc: '123', name: 'Jo Doe' });

/** A checkout answer with `status`, valid against its release's official schemas. */
export function checkoutOf(release: UcpRelease, reply: Reply, status = 200): Body {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(schemaProblems(release, checkoutSchemas(release), reply.body)).toEqual([]);
  return reply.body;
}

/**
 * A refusal of a business outcome with `code` as the release answers it: 2026-04-08 200 with its
 * error envelope (valid against error_response.json); 2026-01-11 `status` (its table) with
 * `requires_escalation` and an error message valid against its message_error.json.
 */
export function outcomeRefusal(release: UcpRelease, reply: Reply, code: string, status2026_01_11: number): Body {
  if (release === '2026-04-08') {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(schemaProblems(release, [ERROR_RESPONSE], reply.body)).toEqual([]);
    expect(reply.body).toMatchObject({ ucp: { status: 'error' }, messages: [{ type: 'error', code }] });
  } else {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status2026_01_11);
    expect(reply.body).toMatchObject({ status: 'requires_escalation', messages: [{ type: 'error', code }] });
    expect(schemaProblems(release, ['https://ucp.dev/schemas/shopping/types/message_error.json'], reply.body.messages[0])).toEqual([]);
  }
  return reply.body;
}

export const errorsOf = (body: Body): Body[] => (body.messages ?? []).filter((message: Body) => message.type === 'error');
