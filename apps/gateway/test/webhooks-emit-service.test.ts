/**
 * The emit service on its own (no Express, no database): production rules,
 * SSRF refusals before any connection, timeouts, logging without secrets.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckoutSession } from '../src/contract/types.js';
import { InvalidRequestError, NotFoundError, UpstreamError } from '../src/kernel/errors.js';
import { EmitService, type EmitOptions, type SessionReader } from '../src/webhooks/emit-service.js';
import type { SendWebhook } from '../src/kernel/outbound/http-delivery.js';
import type { Resolver } from '../src/kernel/outbound/safe-target.js';
import { opensslHmacHex, startReceiver, v1Values, type Receiver } from './support/webhook-receiver.js';

const session = { id: 'cs_1', status: 'open', currency: 'USD', amounts: { total: 10 } } as unknown as CheckoutSession;
const sessions: SessionReader = {
  async get(merchantId, id) {
    if (merchantId === 'shop' && id === 'cs_1') return session;
    throw new NotFoundError(`No checkout session ${id}`);
  },
};
const resolveTo = (address: string): Resolver => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

function service(options: Partial<EmitOptions> = {}): EmitService {
  return new EmitService({ sessions, env: 'development', allowPrivateTargets: false, ...options });
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('EmitService', () => {
  it('refuses an emit without signature_secret in production (400), and signs with it', async () => {
    const production = service({ env: 'production' });
    await expect(production.emit('shop', { event_type: 'order.created' })).rejects.toThrow(InvalidRequestError);
    await expect(production.emit('shop', { event_type: 'order.created' })).rejects.toMatchObject({ param: 'signature_secret' });
    const result = await production.emit('shop', { event_type: 'order.created', signature_secret: 'whsec_live' });
    expect(v1Values(result.signature)).toEqual([opensslHmacHex(Buffer.from(JSON.stringify(result.payload)), 'whsec_live')]);
  });

  it.each(['development', 'sandbox'] as const)('signs with the demo secret in %s', async (env) => {
    const result = await service({ env }).emit('shop', { event_type: 'order.created' });
    expect(v1Values(result.signature)).toEqual([opensslHmacHex(Buffer.from(JSON.stringify(result.payload)), 'whsec_demo_commerce_gateway')]);
  });

  it('signs with the injected clock and builds the payload in contract order', async () => {
    const now = new Date('2026-11-02T14:09:42.000Z');
    const result = await service({ now: () => now }).emit('shop', { event_type: 'order.updated', checkout_session_id: 'cs_1', payload: { x: 1 } });
    expect(result.signature).toMatch(/^t=1793628582,v1=/);
    expect(Object.keys(result.payload)).toEqual(['id', 'type', 'created', 'data']);
    expect(result.payload).toMatchObject({ type: 'order.updated', created: '2026-11-02T14:09:42.000Z', data: { object: { ...session, x: 1 } } });
  });

  it('passes NotFoundError of the session reader through (404)', async () => {
    await expect(service().emit('other', { event_type: 'order.created', checkout_session_id: 'cs_1' })).rejects.toThrow(NotFoundError);
  });

  describe('SSRF protection (private targets not allowed)', () => {
    const send = vi.fn<SendWebhook>();
    const guarded = service({ send, resolve: async () => { throw new Error('no DNS in this test'); } });

    it.each([
      'http://127.0.0.1:8080/hook',
      'http://10.0.0.1/hook',
      'http://172.16.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data/iam',
      'http://[::1]/hook',
      'http://[fc00::1]/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ])('refuses %s with 400 and sends nothing', async (url) => {
      const attempt = guarded.emit('shop', { event_type: 'order.created', target_url: url });
      await expect(attempt).rejects.toThrow(InvalidRequestError);
      await expect(attempt).rejects.toMatchObject({ param: 'target_url', message: expect.stringMatching(/^target_url host .* is a .* address/) });
      expect(send).not.toHaveBeenCalled();
    });

    it.each(['127.0.0.1', '10.9.8.7', '172.20.0.1', '192.168.0.2', '169.254.169.254', '::1', 'fc00::2', 'fe80::2', '0.0.0.0'])(
      'refuses a host name that resolves to %s, and sends nothing',
      async (address) => {
        const attempt = service({ send, resolve: resolveTo(address) }).emit('shop', { event_type: 'order.created', target_url: 'https://rebind.example/x' });
        await expect(attempt).rejects.toThrow(/^target_url host rebind\.example resolves to a .* address/);
        expect(send).not.toHaveBeenCalled();
      },
    );

    it('refuses a non-http(s) target before looking at the session', async () => {
      await expect(guarded.emit('shop', { event_type: 'order.created', target_url: 'file:///etc/passwd', checkout_session_id: 'cs_404' })).rejects.toThrow(
        'target_url must use http or https, not file',
      );
    });

    it('sends to the checked address with the name kept (no second DNS answer)', async () => {
      let calls = 0;
      const flipping: Resolver = async () => [{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      const spy = vi.fn<SendWebhook>(async () => ({ status: 204, durationMs: 1 }));
      const result = await service({ send: spy, resolve: flipping }).emit('shop', { event_type: 'order.created', target_url: 'https://shop.example/h' });
      expect(result.delivered).toBe(204);
      expect(calls).toBe(1);
      expect(spy.mock.calls[0]![0].target).toMatchObject({ hostname: 'shop.example', address: '93.184.216.34' });
    });
  });

  it('answers 502 "timed out after …" when the target does not answer in time (injected timeout)', async () => {
    receiver.reply = () => new Promise(() => {});
    // Never answering, only the injected deadline settles it (a missing one hangs to the test's timeout).
    const attempt = service({ allowPrivateTargets: true, timeoutMs: 200 }).emit('shop', { event_type: 'order.created', target_url: `${receiver.url}/slow` });
    await expect(attempt).rejects.toThrow(UpstreamError);
    await expect(attempt).rejects.toThrow(`Webhook delivery to 127.0.0.1:${receiver.port} failed: timed out after 200 ms`);
  });

  it('answers 502 with the reason when DNS fails', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(service({ resolve: failing }).emit('shop', { event_type: 'order.created', target_url: 'https://gone.example/' })).rejects.toThrow(
      'Webhook delivery to gone.example failed: DNS lookup of gone.example failed (ENOTFOUND)',
    );
  });

  it('logs host, status, duration and event id — never the secret or the URL path', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    receiver.reply = 202;
    const result = await service({ allowPrivateTargets: true, logger }).emit('shop', {
      event_type: 'order.created',
      target_url: `${receiver.url}/private-token-abc`,
      signature_secret: 'whsec_top_secret',
    });
    const log = JSON.parse(lines.join('').trim().split('\n').pop()!);
    expect(log).toMatchObject({ eventId: result.payload.id, host: `127.0.0.1:${receiver.port}`, status: 202, durationMs: expect.any(Number) });
    expect(lines.join('')).not.toMatch(/whsec_top_secret|private-token-abc|v1=/);
  });
});
