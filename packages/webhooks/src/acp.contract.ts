import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { AcpWebhookEvent } from './acp-types.js';
import { WebhookVerificationError } from './errors.js';
import type { SignatureHeaderValue, SignOptions, VerifyOptions, WebhookSecret } from './types.js';

/** What both flavours of the ACP `Merchant-Signature` offer; the async one returns promises. */
export interface AcpVerifier {
  sign(payload: unknown, secret: WebhookSecret, options?: SignOptions): string | Promise<string>;
  verify(payload: unknown, header: SignatureHeaderValue, secret: WebhookSecret, options?: VerifyOptions): AcpWebhookEvent | Promise<AcpWebhookEvent>;
  ErrorClass?: abstract new (...args: never[]) => Error;
}

const T = 1_709_123_456;
const at = (seconds: number) => () => seconds * 1000;
const SECRET = 'whsec_acp_current';
// The first example of openapi.agentic_checkout_webhook.yaml (ACP 2026-04-17), as a merchant sends it.
const event = (): AcpWebhookEvent => ({
  type: 'order_create',
  data: {
    type: 'order',
    id: 'ord_123',
    checkout_session_id: 'checkout_session_123',
    permalink_url: 'https://example.com/orders/123',
    status: 'created',
    line_items: [{ id: 'li_shoes', title: 'Running Shoes — 跑鞋', quantity: { ordered: 1, current: 1, fulfilled: 0 }, unit_price: 9900, subtotal: 9900 }],
    totals: [
      { type: 'subtotal', display_text: 'Subtotal', amount: 9900 },
      { type: 'total', display_text: 'Total', amount: 11260 },
    ],
  },
});
const BODY = JSON.stringify(event());

/** `printf '%s.%s' T BODY | openssl dgst -sha256 -hmac SECRET`: an independent implementation of the scheme. */
function opensslAcp(timestamp: number, body: string, secret: string): string | undefined {
  try {
    const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: Buffer.from(`${timestamp}.${body}`, 'utf8'), encoding: 'utf8' });
    return /([0-9a-f]{64})\s*$/.exec(out)?.[1];
  } catch {
    return undefined;
  }
}

/** The shared specification of the ACP scheme; each flavour's test file calls it. */
export function describeAcpVerifier(name: string, impl: AcpVerifier): void {
  const ErrorClass = impl.ErrorClass ?? WebhookVerificationError;
  const refusal = async (action: () => unknown) => {
    let outcome: unknown;
    try {
      await action();
    } catch (error) {
      outcome = error;
    }
    expect(outcome, 'expected a WebhookVerificationError').toBeInstanceOf(ErrorClass);
    return outcome as WebhookVerificationError;
  };
  const signAt = (seconds = T, secret: WebhookSecret = SECRET, body: unknown = BODY) => Promise.resolve(impl.sign(body, secret, { timestamp: seconds }));

  describe(`${name}: Merchant-Signature (ACP order webhooks)`, () => {
    it('signs in the official form t=<unix seconds>,v1=<64 hex>', async () => {
      expect(await signAt()).toMatch(/^t=\d+,v1=[a-fA-F0-9]{64}$/); // the header's pattern in the webhook spec
    });

    const expected = opensslAcp(T, BODY, SECRET);
    it.skipIf(!expected)('v1 is HMAC-SHA256 of "<t>.<raw body>", byte for byte as openssl computes it', async () => {
      expect(await signAt()).toBe(`t=${T},v1=${expected}`);
    });

    it('accepts a fresh signature and returns the parsed { type, data }', async () => {
      expect(await impl.verify(BODY, await signAt(), SECRET, { now: at(T) })).toEqual(event());
    });

    it.each([
      ['a string', () => BODY],
      ['a Buffer', () => Buffer.from(BODY)],
      ['an ArrayBuffer', () => new TextEncoder().encode(BODY).buffer],
      ['a view at an offset into a larger buffer', () => Buffer.from(`xx${BODY}yy`).subarray(2, -2)],
    ])('accepts the raw body as %s', async (_, body) => {
      const header = await signAt(T, SECRET, body());
      expect(header).toBe(await signAt());
      expect(await impl.verify(body(), header, SECRET, { now: at(T) })).toEqual(event());
    });

    it('differs from X-Webhook-Signature: the timestamp is signed, so moving t breaks the signature', async () => {
      const header = await signAt(T);
      const moved = header.replace(`t=${T}`, `t=${T + 1}`);
      expect(await refusal(() => impl.verify(BODY, moved, SECRET, { now: at(T) }))).toMatchObject({ reason: 'signature_mismatch' });
    });

    it('rejects a tampered body, the wrong secret, and says the timestamp is signed too', async () => {
      const tampered = BODY.replace('9900', '9901');
      const error = await refusal(async () => impl.verify(tampered, await signAt(), SECRET, { now: at(T) }));
      expect(error.reason).toBe('signature_mismatch');
      expect(error.message).toContain('the timestamp is signed too');
      const other = await signAt(T, 'whsec_someone_else');
      expect(await refusal(() => impl.verify(BODY, other, SECRET, { now: at(T) }))).toMatchObject({ reason: 'signature_mismatch' });
    });

    it.each([
      ['300 s old (the recommended tolerance)', -300, null],
      ['301 s old', -301, 'timestamp_too_old'],
      ['301 s ahead', 301, 'timestamp_too_new'],
    ])('tolerance: a signature %s', async (_, offset, reason) => {
      const header = await signAt(T + offset);
      const attempt = () => impl.verify(BODY, header, SECRET, { now: at(T) });
      if (reason === null) expect(await attempt()).toEqual(event());
      else expect(await refusal(attempt)).toMatchObject({ reason });
    });

    it('honours a custom tolerance and checks the signature before the clock', async () => {
      expect(await refusal(async () => impl.verify(BODY, await signAt(T - 11), SECRET, { tolerance: 10, now: at(T) }))).toMatchObject({ reason: 'timestamp_too_old' });
      const forged = await signAt(T - 3600, 'whsec_forger');
      expect(await refusal(() => impl.verify(BODY, forged, SECRET, { now: at(T) }))).toMatchObject({ reason: 'signature_mismatch' });
    });

    it('accepts any of several secrets on either side (rotation)', async () => {
      expect(await impl.verify(BODY, await signAt(T, ['whsec_old', SECRET]), SECRET, { now: at(T) })).toEqual(event());
      expect(await impl.verify(BODY, await signAt(T, 'whsec_old'), [SECRET, 'whsec_old'], { now: at(T) })).toEqual(event());
    });

    it.each([undefined, null, ''])('rejects a missing header (%j), naming Merchant-Signature', async (header) => {
      const error = await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T) }));
      expect(error.reason).toBe('missing_header');
      expect(error.message).toContain('No Merchant-Signature header');
    });

    it.each([
      ['no v1', `t=${T}`],
      ['a short v1', `t=${T},v1=${'ab'.repeat(31)}`],
      ['a non-numeric t', `t=now,v1=${'ab'.repeat(32)}`],
    ])('rejects a malformed header: %s', async (_, header) => {
      const error = await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T) }));
      expect(error.reason).toBe('malformed_header');
      expect(error.message).toContain('Malformed Merchant-Signature header');
    });

    it.each([
      ['the parsed JSON', JSON.parse(BODY)],
      ['undefined', undefined],
    ])('refuses %s instead of the raw body', async (_, body) => {
      const error = await refusal(async () => impl.verify(body, await signAt(), SECRET, { now: at(T) }));
      expect(error.reason).toBe('invalid_body');
      expect(error.message).toContain('not the parsed JSON');
    });

    it('refuses an empty secret with invalid_secret', async () => {
      expect(await refusal(() => impl.sign(BODY, ''))).toMatchObject({ reason: 'invalid_secret' });
      expect(await refusal(async () => impl.verify(BODY, await signAt(), '', { now: at(T) }))).toMatchObject({ reason: 'invalid_secret' });
    });

    it('defaults to the real clock', async () => {
      expect(await impl.verify(BODY, await impl.sign(BODY, SECRET), SECRET)).toEqual(event());
    });
  });
}
