import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.js';
import type {
  SignatureHeaderValue, SignOptions, TestHeaderOptions, VerifyOptions, WebhookEvent, WebhookSecret,
} from './types.js';

/** What both flavours offer; the async one simply returns promises. */
export interface Verifier {
  sign(payload: unknown, secret: WebhookSecret, options?: SignOptions): string | Promise<string>;
  verify(payload: unknown, header: SignatureHeaderValue, secret: WebhookSecret, options?: VerifyOptions): WebhookEvent | Promise<WebhookEvent>;
  generateTestHeader(options: TestHeaderOptions): string | Promise<string>;
  /** The error class the implementation throws (another realm's copy when run in a vm). */
  ErrorClass?: abstract new (...args: never[]) => Error;
}

const T = 1_700_000_000; // signing time, Unix seconds
const at = (seconds: number) => () => seconds * 1000;
const SECRET = 'whsec_current';
const OLD_SECRET = 'whsec_previous';
const event = (): WebhookEvent => ({
  id: 'evt_3f9c',
  type: 'order.created',
  created: '2023-11-14T22:13:20Z',
  data: { object: { id: 'ord_1', total: 42.5, note: 'crème brûlée, 注文 🛒' } },
});
const BODY = JSON.stringify(event());
const v1 = (header: string) => header.split(',').filter((e) => e.startsWith('v1='));

/** The shared specification of sign/verify; each flavour's test file calls it. */
export function describeVerifier(name: string, impl: Verifier): void {
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
  const signAt = (seconds = T, secret: WebhookSecret = SECRET, body: unknown = BODY) =>
    Promise.resolve(impl.sign(body, secret, { timestamp: seconds }));

  describe(`${name}: verify`, () => {
    it('accepts a fresh signature and returns the parsed event', async () => {
      expect(await impl.verify(BODY, await signAt(), SECRET, { now: at(T) })).toEqual(event());
    });

    it.each([
      ['a string', () => BODY],
      ['a Buffer', () => Buffer.from(BODY)],
      ['a Uint8Array', () => new TextEncoder().encode(BODY)],
      ['an ArrayBuffer', () => new TextEncoder().encode(BODY).buffer],
      ['a view at an offset into a larger buffer', () => Buffer.from(`xx${BODY}yy`).subarray(2, -2)],
    ])('accepts the raw body as %s, signed and verified', async (_, body) => {
      const header = await signAt(T, SECRET, body());
      expect(header).toBe(await signAt());
      expect(await impl.verify(body(), header, SECRET, { now: at(T) })).toEqual(event());
    });

    it('signs with one v1 per secret, in order, and accepts when any one matches (rotation)', async () => {
      const both = await signAt(T, [OLD_SECRET, SECRET]);
      expect(v1(both)).toEqual([...v1(await signAt(T, OLD_SECRET)), ...v1(await signAt(T, SECRET))]);
      expect(await impl.verify(BODY, both, SECRET, { now: at(T) })).toEqual(event());
      expect(await impl.verify(BODY, both, OLD_SECRET, { now: at(T) })).toEqual(event());
    });

    it('accepts with any of several receiver secrets (rotation on the receiving side)', async () => {
      expect(await impl.verify(BODY, await signAt(T, OLD_SECRET), [SECRET, OLD_SECRET], { now: at(T) })).toEqual(event());
    });

    it.each([
      ['300 s old', -300],
      ['300 s ahead', 300],
      ['0 s apart', 0],
    ])('accepts a timestamp exactly at the tolerance: %s', async (_, offset) => {
      expect(await impl.verify(BODY, await signAt(T + offset), SECRET, { now: at(T) })).toEqual(event());
    });

    it.each([
      ['older than the tolerance (301 s old)', -301, 'timestamp_too_old'],
      ['newer than the tolerance (301 s ahead)', 301, 'timestamp_too_new'],
    ])('rejects a timestamp %s', async (_, offset, reason) => {
      const header = await signAt(T + offset);
      expect(await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T) }))).toMatchObject({ reason });
    });

    it('rejects a tampered body (one byte changed)', async () => {
      const tampered = Buffer.from(BODY);
      tampered[tampered.indexOf('42.5')] = '9'.charCodeAt(0);
      const error = await refusal(async () => impl.verify(tampered, await signAt(), SECRET, { now: at(T) }));
      expect(error.reason).toBe('signature_mismatch');
    });

    it('rejects the wrong secret', async () => {
      const header = await signAt(T, 'whsec_someone_else');
      expect(await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T) }))).toMatchObject({ reason: 'signature_mismatch' });
    });

    it('checks the signature before the timestamp, so a forgery never learns about clocks', async () => {
      const header = await signAt(T - 3600, 'whsec_someone_else');
      expect(await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T) }))).toMatchObject({ reason: 'signature_mismatch' });
    });

    it.each([undefined, null, '', '   ', []])('rejects a missing header (%j) with missing_header', async (header) => {
      expect(await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T) }))).toMatchObject({ reason: 'missing_header' });
    });

    const hex = 'ab'.repeat(32);
    it.each([
      ['not key=value', 'garbage'],
      ['no t', `v1=${hex}`],
      ['no v1', `t=${T}`],
      ['only an unknown scheme', `t=${T},v0=${hex}`],
      ['a non-integer t', `t=${T}.5,v1=${hex}`],
      ['a non-numeric t', `t=yesterday,v1=${hex}`],
      ['a negative t', `t=-${T},v1=${hex}`],
      ['two t', `t=${T},t=${T},v1=${hex}`],
      ['a non-hex v1', `t=${T},v1=${'zz'.repeat(32)}`],
      ['a short v1', `t=${T},v1=${hex.slice(1)}`],
      ['a long v1', `t=${T},v1=${hex}0`],
      ['an empty v1', `t=${T},v1=`],
      ['a trailing comma', `t=${T},v1=${hex},`],
    ])('rejects a malformed header: %s', async (_, header) => {
      expect(await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T) }))).toMatchObject({ reason: 'malformed_header' });
    });

    it('ignores unknown schemes beside a valid v1 (forward compatibility)', async () => {
      const header = (await signAt()).replace(',', `,v0=legacy,v2=${'cd'.repeat(48)},`);
      expect(await impl.verify(BODY, header, SECRET, { now: at(T) })).toEqual(event());
    });

    it.each([
      ['the parsed JSON', JSON.parse(BODY)],
      ['an array', [1, 2]],
      ['undefined', undefined],
      ['null', null],
      ['a number', 42],
    ])('refuses %s instead of the raw body, saying to pass the raw body', async (_, body) => {
      const error = await refusal(async () => impl.verify(body, await signAt(), SECRET, { now: at(T) }));
      expect(error.reason).toBe('invalid_body');
      expect(error.message).toContain('pass the raw request body (string, Buffer or Uint8Array) exactly as received, not the parsed JSON');
      expect(error.message).toContain("express.raw({ type: 'application/json' })");
    });

    it.each([
      ['not JSON', Buffer.from('order created')],
      ['not UTF-8', Buffer.from([0x7b, 0xff, 0x7d])],
    ])('refuses a correctly signed body that is %s with invalid_body', async (_, body) => {
      const header = await signAt(T, SECRET, body);
      expect(await refusal(() => impl.verify(body, header, SECRET, { now: at(T) }))).toMatchObject({ reason: 'invalid_body' });
    });

    it.each([['an empty string', ''], ['an empty list', []], ['a list with an empty secret', [SECRET, '']], ['undefined', undefined]])(
      'refuses %s as the secret with invalid_secret, when signing and when verifying',
      async (_, secret) => {
        const header = await signAt();
        const bad = secret as WebhookSecret;
        expect(await refusal(() => impl.verify(BODY, header, bad, { now: at(T) }))).toMatchObject({ reason: 'invalid_secret' });
        expect(await refusal(() => impl.sign(BODY, bad))).toMatchObject({ reason: 'invalid_secret' });
      },
    );

    it('uses the injected clock', async () => {
      const header = await signAt(T);
      expect(await impl.verify(BODY, header, SECRET, { now: at(T + 200) })).toEqual(event());
      expect(await refusal(() => impl.verify(BODY, header, SECRET, { now: at(T + 3600) }))).toMatchObject({ reason: 'timestamp_too_old' });
    });

    it('defaults to the real clock when signing and verifying', async () => {
      const header = await impl.sign(BODY, SECRET);
      expect(Math.abs(Number(/^t=(\d+),/.exec(header)?.[1]) - Date.now() / 1000)).toBeLessThan(5);
      expect(await impl.verify(BODY, header, SECRET)).toEqual(event());
    });

    it.each([
      [10, -10, 'accepted'],
      [10, -11, 'timestamp_too_old'],
      [10, 11, 'timestamp_too_new'],
      [0, 0, 'accepted'],
      [0, -1, 'timestamp_too_old'],
      [86_400, -86_400, 'accepted'],
    ])('honours a custom tolerance of %i s (signed %i s from now: %s)', async (tolerance, offset, outcome) => {
      const header = await signAt(T + offset);
      const attempt = () => impl.verify(BODY, header, SECRET, { tolerance, now: at(T) });
      if (outcome === 'accepted') expect(await attempt()).toEqual(event());
      else expect(await refusal(attempt)).toMatchObject({ reason: outcome });
    });

    it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a tolerance of %s as a programming error', async (tolerance) => {
      const header = await signAt();
      await expect(Promise.resolve().then(() => impl.verify(BODY, header, SECRET, { tolerance }))).rejects.toThrow(/tolerance/);
    });

    it('generates test headers that verify', async () => {
      const header = await impl.generateTestHeader({ payload: BODY, secret: SECRET, timestamp: T });
      expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
      expect(await impl.verify(BODY, header, SECRET, { now: at(T) })).toEqual(event());
    });
  });
}
