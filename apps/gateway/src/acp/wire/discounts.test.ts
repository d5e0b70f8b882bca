import { describe, expect, it } from 'vitest';
import type { Session } from '../../checkout/session.js';
import type { RejectionReason } from '../../discounts/apply-discounts.js';
import { acpValidator } from '../acp-schemas.js';
import { negotiateExtensions, sessionCapabilities } from '../capabilities.js';
import { ACP_REASONS, appliedId, declaresDiscounts, rejectionMessages, requestedCodes, shippingDiscount, toAcpDiscounts } from './discounts.js';

type Discounted = Pick<Session, 'discountCodes' | 'discounts' | 'currency'>;

const SESSION: Discounted = {
  currency: 'USD',
  discountCodes: ['ten', 'NOPE', 'Old'],
  discounts: {
    applied: [
      { kind: 'promotion', promotionId: 'lamps-5', title: '5 % off lamps', target: 'items', amount: 200n, allocation: [0n, 200n] },
      { kind: 'code', code: 'TEN', title: 'TEN', target: 'items', amount: 1380n, allocation: [1000n, 380n] },
      { kind: 'promotion', promotionId: 'ship-free', title: 'Free shipping', target: 'shipping', amount: 700n, allocation: [] },
    ],
    rejected: [
      { code: 'NOPE', reason: 'unknown' },
      { code: 'OLD', reason: 'expired' },
    ],
  },
};

const valid = (name: string, value: unknown) => {
  const validate = acpValidator(name);
  expect(validate(value), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
};

describe('ACP_REASONS', () => {
  it('maps every domain reason to a DiscountErrorCode of the official schema', () => {
    const reasons: RejectionReason[] = ['unknown', 'not_started', 'expired', 'minimum_not_met', 'limit_reached', 'not_combinable', 'already_applied', 'not_applicable'];
    expect(Object.keys(ACP_REASONS).sort()).toEqual([...reasons].sort());
    for (const reason of reasons) valid('DiscountErrorCode', ACP_REASONS[reason]);
    expect(ACP_REASONS).toMatchObject({ unknown: 'discount_code_invalid', not_started: 'discount_code_invalid', expired: 'discount_code_expired', not_applicable: 'discount_code_user_ineligible' });
  });
});

describe('requestedCodes', () => {
  it('takes discounts.codes, else the deprecated coupons; discounts.codes wins; neither leaves the codes as they are', () => {
    expect(requestedCodes({ discounts: { codes: ['A'] }, coupons: ['B'] })).toEqual(['A']);
    expect(requestedCodes({ coupons: ['B'] })).toEqual(['B']);
    expect(requestedCodes({ discounts: { codes: [] } })).toEqual([]);
    expect(requestedCodes({ discounts: {}, coupons: ['B'] })).toEqual(['B']);
    expect(requestedCodes({})).toBeUndefined();
  });

  it('refuses more than 10 codes or one blank or longer than 64, naming the field the agent used', () => {
    expect(() => requestedCodes({ discounts: { codes: Array.from({ length: 11 }, (_, i) => `C${i}`) } })).toThrow(expect.objectContaining({ status: 400, param: '$.discounts.codes' }));
    expect(() => requestedCodes({ coupons: ['A', ' '] })).toThrow(expect.objectContaining({ param: '$.coupons[1]' }));
    expect(() => requestedCodes({ discounts: { codes: ['x'.repeat(65)] } })).toThrow(expect.objectContaining({ param: '$.discounts.codes[0]' }));
  });
});

describe('negotiation', () => {
  it('activates discount when the agent declares it (as a string, or as a declaration), and declares it in the session', () => {
    expect(declaresDiscounts({ extensions: ['discount', 'loyalty'] })).toBe(true);
    expect(declaresDiscounts({ extensions: [{ name: 'discount' }] })).toBe(true);
    expect(declaresDiscounts({ extensions: ['loyalty'] })).toBe(false);
    expect(declaresDiscounts(undefined)).toBe(false);
    expect(negotiateExtensions({ extensions: ['discount'] })).toEqual(['discount']);
    const capabilities = sessionCapabilities([], ['3ds'], ['discount']);
    valid('Capabilities', capabilities);
    expect(capabilities.extensions).toEqual([{ name: 'discount', extends: ['$.CheckoutSessionCreateRequest.discounts', '$.CheckoutSessionUpdateRequest.discounts', '$.CheckoutSession.discounts'] }]);
    expect(sessionCapabilities([], [])).not.toHaveProperty('extensions');
  });
});

describe('toAcpDiscounts', () => {
  it('shows codes as sent, applied discounts in stacking order with stable ids and allocations, rejected codes with ACP reasons', () => {
    const discounts = toAcpDiscounts(SESSION);
    valid('DiscountsResponse', discounts);
    expect(discounts.codes).toEqual(['ten', 'NOPE', 'Old']);
    expect(discounts.applied!.map((d) => [d.id, d.code, d.automatic, d.priority, d.amount])).toEqual([
      ['promo_lamps-5', undefined, true, 1, 200],
      ['code_TEN', 'TEN', false, 2, 1380],
      ['promo_ship-free', undefined, true, 3, 700],
    ]);
    expect(discounts.applied![1]!.coupon).toEqual({ id: 'TEN', name: 'TEN', amount_off: 1380, currency: 'usd' });
    expect(discounts.applied![1]!.allocations).toEqual([{ path: '$.line_items[0]', amount: 1000 }, { path: '$.line_items[1]', amount: 380 }]);
    expect(discounts.applied![0]!.allocations).toEqual([{ path: '$.line_items[1]', amount: 200 }]);
    expect(discounts.applied![2]!.allocations).toEqual([{ path: '$.totals.shipping', amount: 700 }]);
    for (const applied of discounts.applied!) expect(applied.allocations!.reduce((sum, a) => sum + a.amount, 0)).toBe(applied.amount);
    expect(discounts.rejected).toEqual([
      { code: 'NOPE', reason: 'discount_code_invalid', message: 'This code does not exist.' },
      { code: 'OLD', reason: 'discount_code_expired', message: 'This code expired.' },
    ]);
    expect(appliedId({ kind: 'code', code: 'X', title: 'X', target: 'items', amount: 1n, allocation: [1n] })).toBe('code_X');
    expect(shippingDiscount(SESSION)).toBe(700n);
  });

  it('says each refused code as a warning about its place in the codes (case-insensitive), under the field the agent can use', () => {
    const messages = rejectionMessages(SESSION, true);
    for (const message of messages) valid('MessageWarning', message);
    expect(messages.map((m) => [m.type, 'code' in m ? m.code : undefined, m.param])).toEqual([
      ['warning', 'discount_code_invalid', '$.discounts.codes[1]'],
      ['warning', 'discount_code_expired', '$.discounts.codes[2]'],
    ]);
    expect(rejectionMessages(SESSION, false).map((m) => m.param)).toEqual(['$.coupons[1]', '$.coupons[2]']);
    const ten = { kind: 'code' as const, code: 'TEN', title: 'TEN', target: 'items' as const, amount: 100n, allocation: [100n] };
    const twice = { discountCodes: ['TEN', 'ten'], discounts: { applied: [ten], rejected: [{ code: 'ten', reason: 'already_applied' as const }] } };
    expect(rejectionMessages(twice, true).map((m) => [m.param, 'code' in m ? m.code : undefined])).toEqual([['$.discounts.codes[1]', 'discount_code_already_applied']]);
  });
});
