/**
 * ACP's discount extension (rfc.discount_extension.md, draft 2026-01-27, with
 * rfc.extensions.md; neither is in the vendored 2026-04-17 documents, whose schema carries their
 * types: DiscountsRequest, DiscountsResponse, AppliedDiscount, RejectedDiscount, DiscountErrorCode)
 * over the session's discounts as the checkout domain prices them.
 *
 * - Requests: `discounts.codes` (replaces the codes asked before; `[]` clears them) or the
 *   deprecated `coupons`, its alias; when both are sent `discounts.codes` wins (RFC §10.1).
 * - Negotiation (rfc.extensions.md §4): the extension is active for a session when the agent lists
 *   `discount` in `capabilities.extensions` at creation, or sends `discounts` in a create or update
 *   (an agent that sends the extension's field understands it). An active session answers with the
 *   extension's declaration in `capabilities.extensions` and a `discounts` object; otherwise neither
 *   (the schema: "Present when the 'discount' extension is active"), though `coupons` still apply
 *   and totals, line totals and messages still show every discount (RFC §10.2).
 * - Applied: promotions then codes, in the order the domain stacked them (`priority` 1, 2, …),
 *   each allocated to lines (`$.line_items[i]`) or, for a free-shipping promotion, to shipping
 *   (`$.totals.shipping`, the RFC's path for it, §5.3). The domain does not expose a code's
 *   definition on the session, so `coupon` is derived: `name` the code (or the promotion's title),
 *   `amount_off` what it took off this cart, in the session's currency.
 * - Rejected: each refused code with the DiscountErrorCode closest to the domain's reason
 *   (ACP_REASONS) and our message (REJECTION_MESSAGES), and — the RFC's SHOULD (§7, §7.2) — a
 *   `warning` in messages[] with the same code, about `$.discounts.codes[i]` (`$.coupons[i]` while
 *   the extension is not active).
 */
import { MAX_DISCOUNT_CODES } from '../../checkout/session-discounts.js';
import { REJECTION_MESSAGES } from '../../checkout/session-mapper.js';
import type { Session, SessionDiscount } from '../../checkout/session.js';
import type { RejectionReason } from '../../discounts/apply-discounts.js';
import { AcpError } from '../acp-error.js';
import type * as Acp from '../generated/index.js';
import { minor } from './amounts.js';
import type { AcpCapabilities, AcpMessage } from './acp-types.js';

export const DISCOUNT_EXTENSION = 'discount';

/** The extension's declaration in an active session's `capabilities.extensions` (RFC §3). */
export const DISCOUNT_DECLARATION: Acp.ExtensionDeclaration = {
  name: DISCOUNT_EXTENSION,
  extends: ['$.CheckoutSessionCreateRequest.discounts', '$.CheckoutSessionUpdateRequest.discounts', '$.CheckoutSession.discounts'],
};

/** Where a free-shipping promotion's amount is allocated (RFC §5.3's path for the shipping cost). */
export const SHIPPING_ALLOCATION_PATH = '$.totals.shipping';

/**
 * The domain's reasons as ACP's DiscountErrorCode. Where ACP has no exact match:
 * - `not_started` → `discount_code_invalid`: the code exists but cannot be used yet; "expired"
 *   would tell the buyer it is over, which it is not. The message says "not valid yet".
 * - `not_applicable` (no line of the cart is one it applies to, or no amount in the cart's
 *   currency) → `discount_code_user_ineligible`: the code is real and well formed (not "invalid"),
 *   the purchase does not meet its criteria.
 * - `limit_reached` covers both the code's limit and the buyer's own → `discount_code_usage_limit_reached`.
 */
export const ACP_REASONS: Record<RejectionReason, Acp.DiscountErrorCode> = {
  unknown: 'discount_code_invalid',
  not_started: 'discount_code_invalid',
  expired: 'discount_code_expired',
  minimum_not_met: 'discount_code_minimum_not_met',
  limit_reached: 'discount_code_usage_limit_reached',
  not_combinable: 'discount_code_combination_disallowed',
  already_applied: 'discount_code_already_applied',
  not_applicable: 'discount_code_user_ineligible',
};

/**
 * The codes a create or update asks for: `discounts.codes`, else the deprecated `coupons`;
 * undefined leaves them as they are. Checked here as the domain would (checkDiscountCodes: at most
 * MAX_DISCOUNT_CODES, each 1 to 64 characters once trimmed) so the error names the agent's field.
 */
export function requestedCodes(request: { discounts?: Acp.DiscountsRequest | undefined; coupons?: string[] | undefined }): string[] | undefined {
  const fromDiscounts = request.discounts?.codes;
  const codes = fromDiscounts ?? request.coupons;
  if (codes === undefined) return undefined;
  const field = fromDiscounts !== undefined ? '$.discounts.codes' : '$.coupons';
  if (codes.length > MAX_DISCOUNT_CODES) throw new AcpError(400, 'invalid_request', 'invalid', `${field} holds at most ${MAX_DISCOUNT_CODES} codes, got ${codes.length}`, field);
  codes.forEach((code, i) => {
    const length = code.trim().length;
    if (length < 1 || length > 64) throw new AcpError(400, 'invalid_request', 'invalid', `${field}[${i}] must be a code of 1 to 64 characters`, `${field}[${i}]`);
  });
  return [...codes];
}

/** Whether the agent declared the extension in its capabilities. */
export function declaresDiscounts(capabilities: AcpCapabilities | undefined): boolean {
  const extensions = capabilities?.extensions ?? [];
  return extensions.some((extension) => (typeof extension === 'string' ? extension : extension.name) === DISCOUNT_EXTENSION);
}

/** A stable id for an applied discount: `code_<CODE>` or `promo_<id>`. */
export function appliedId(discount: SessionDiscount): string {
  return discount.kind === 'code' ? `code_${discount.code ?? discount.title}` : `promo_${discount.promotionId ?? discount.title}`;
}

/** What the free-shipping promotion took off the shipping (0 when none applies to the option priced). */
export function shippingDiscount(session: Pick<Session, 'discounts'>): bigint {
  return session.discounts.applied.filter((discount) => discount.target === 'shipping').reduce((sum, discount) => sum + discount.amount, 0n);
}

/** Where a rejected code sits in the codes the buyer asked for (case-insensitive, as codes match), skipping places already named (a code sent twice). */
function codeIndex(codes: readonly string[], code: string, named: Set<number>): number {
  const key = code.trim().toUpperCase();
  const index = codes.findIndex((asked, i) => !named.has(i) && asked.trim().toUpperCase() === key);
  if (index >= 0) named.add(index);
  return index;
}

function appliedDiscount(discount: SessionDiscount, priority: number, currency: string): Acp.AppliedDiscount {
  const amount = minor(discount.amount);
  const allocations: Acp.DiscountAllocation[] =
    discount.target === 'shipping'
      ? [{ path: SHIPPING_ALLOCATION_PATH, amount }]
      : discount.allocation.flatMap((share, position) => (share > 0n ? [{ path: `$.line_items[${position}]`, amount: minor(share) }] : []));
  return {
    id: appliedId(discount),
    ...(discount.kind === 'code' && discount.code !== undefined ? { code: discount.code } : {}),
    coupon: {
      id: discount.kind === 'code' ? (discount.code ?? discount.title) : (discount.promotionId ?? discount.title),
      name: discount.title,
      amount_off: amount,
      currency,
    },
    amount,
    automatic: discount.kind === 'promotion',
    method: 'across',
    priority,
    allocations,
  };
}

/** The session's `discounts` (the extension active). */
export function toAcpDiscounts(session: Pick<Session, 'discountCodes' | 'discounts' | 'currency'>): Acp.DiscountsResponse {
  const currency = session.currency.toLowerCase();
  return {
    codes: [...session.discountCodes],
    applied: session.discounts.applied.map((discount, i) => appliedDiscount(discount, i + 1, currency)),
    rejected: session.discounts.rejected.map(({ code, reason }) => ({ code, reason: ACP_REASONS[reason], message: REJECTION_MESSAGES[reason] })),
  };
}

/** A warning per refused code (RFC §7: rejected codes SHOULD also be messages; §7.2: warnings). */
export function rejectionMessages(session: Pick<Session, 'discountCodes' | 'discounts'>, active: boolean): AcpMessage[] {
  const field = active ? '$.discounts.codes' : '$.coupons';
  // The places of the codes that applied first: a code sent twice is refused at its second place.
  const named = new Set<number>();
  for (const applied of session.discounts.applied) if (applied.kind === 'code' && applied.code !== undefined) codeIndex(session.discountCodes, applied.code, named);
  return session.discounts.rejected.map(({ code, reason }) => {
    const index = codeIndex(session.discountCodes, code, named);
    return {
      type: 'warning',
      code: ACP_REASONS[reason],
      ...(index >= 0 ? { param: `${field}[${index}]` } : {}),
      content_type: 'plain',
      content: `Code ${JSON.stringify(code)}: ${REJECTION_MESSAGES[reason]}`,
    };
  });
}
