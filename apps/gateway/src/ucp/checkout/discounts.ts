/**
 * UCP's discount extension (discount.md) over the session's discounts as the domain priced them:
 * `codes` as asked (replaced by each request that sends them; `[]` clears), `applied` — promotions
 * (`automatic`) then codes, in the order they stacked (`priority`), each allocated to the lines
 * (`$.line_items[i]`) or, for a free-shipping promotion, to the shipping (`$.totals.shipping`, the
 * schema's own example path) — amounts positive, as the extension says; and a `warning` in
 * `messages[]` for each refused code, about `$.discounts.codes[i]`, with the extension's code
 * closest to the domain's reason (a code it does not name keeps ours: UCP's codes are freeform).
 */
import { REJECTION_MESSAGES } from '../../checkout/session-mapper.js';
import type { Session, SessionDiscount } from '../../checkout/session.js';
import type { RejectionReason } from '../../discounts/apply-discounts.js';

export const UCP_REJECTIONS: Record<RejectionReason, string> = {
  unknown: 'discount_code_invalid',
  not_started: 'discount_code_invalid',
  expired: 'discount_code_expired',
  already_applied: 'discount_code_already_applied',
  not_combinable: 'discount_code_combination_disallowed',
  minimum_not_met: 'discount_code_user_ineligible',
  not_applicable: 'discount_code_user_ineligible',
  limit_reached: 'discount_code_usage_limit_reached',
};

const SHIPPING_PATH = '$.totals.shipping';

/** What a free-shipping promotion took off the shipping. */
export function shippingDiscount(session: Pick<Session, 'discounts'>): bigint {
  return session.discounts.applied.filter((discount) => discount.target === 'shipping').reduce((sum, discount) => sum + discount.amount, 0n);
}

function applied(discount: SessionDiscount, priority: number): Record<string, unknown> {
  const amount = Number(discount.amount);
  const allocations =
    discount.target === 'shipping'
      ? [{ path: SHIPPING_PATH, amount }]
      : discount.allocation.flatMap((share, position) => (share > 0n ? [{ path: `$.line_items[${position}]`, amount: Number(share) }] : []));
  return {
    ...(discount.kind === 'code' && discount.code !== undefined ? { code: discount.code } : {}),
    title: discount.title,
    amount,
    automatic: discount.kind === 'promotion',
    method: 'across',
    priority,
    allocations,
  };
}

export function toUcpDiscounts(session: Pick<Session, 'discountCodes' | 'discounts'>): Record<string, unknown> {
  return { codes: [...session.discountCodes], applied: session.discounts.applied.map((discount, i) => applied(discount, i + 1)) };
}

/** A warning per refused code, at its place among the codes asked (a code sent twice: its second place). */
export function discountMessages(session: Pick<Session, 'discountCodes' | 'discounts'>): Record<string, unknown>[] {
  const key = (code: string) => code.trim().toUpperCase();
  const named = new Set<number>();
  const place = (code: string) => {
    const index = session.discountCodes.findIndex((asked, i) => !named.has(i) && key(asked) === key(code));
    if (index >= 0) named.add(index);
    return index;
  };
  for (const discount of session.discounts.applied) if (discount.kind === 'code' && discount.code !== undefined) place(discount.code);
  return session.discounts.rejected.map(({ code, reason }) => {
    const index = place(code);
    return { type: 'warning', code: UCP_REJECTIONS[reason], ...(index >= 0 ? { path: `$.discounts.codes[${index}]` } : {}), content: `Code ${JSON.stringify(code)}: ${REJECTION_MESSAGES[reason]}` };
  });
}
