/**
 * The discounts a session is priced with: the merchant's codes and promotions (DiscountService's
 * cache), the codes the buyer asked for, and — only when a code it asks for has a usage limit —
 * how often each was used. Limits are read here to show a code that reached its limit as refused;
 * completion redeems them, atomically, in its own statement (completion-sql.ts).
 */
import type { CodeUsage } from '../discounts/apply-discounts.js';
import { codeKey, type MerchantDiscounts } from '../discounts/discount.js';
import { InvalidRequestError } from '../kernel/errors.js';
import type { Tx } from '../db/transaction.js';
import type { DiscountContext } from './pricing/pricing.js';
import type { SessionDiscounts } from './session.js';

/** What checkout needs of a merchant's discounts (DiscountService provides it). */
export interface DiscountSource {
  readonly active: { get(merchantId: string): Promise<MerchantDiscounts> };
  usage(merchantId: string, keys: readonly string[], email: string | undefined, tx?: Tx): Promise<Map<string, CodeUsage>>;
}

export const MAX_DISCOUNT_CODES = 10;

const NONE: MerchantDiscounts = { codes: [], promotions: [] };

/** The buyer's codes as given (trimmed); 400 naming `discount_codes` for more than 10, or a code that is blank or longer than 64. */
export function checkDiscountCodes(codes: readonly unknown[]): string[] {
  if (codes.length > MAX_DISCOUNT_CODES) throw new InvalidRequestError(`discount_codes holds at most ${MAX_DISCOUNT_CODES} codes, got ${codes.length}`, 'discount_codes');
  return codes.map((code, i) => {
    const text = typeof code === 'string' ? code.trim() : '';
    if (text.length < 1 || text.length > 64) throw new InvalidRequestError(`discount_codes[${i}] must be a code of 1 to 64 characters`, `discount_codes[${i}]`);
    return text;
  });
}

/** The merchant's discounts, read before a transaction opens (on PGlite nothing else reads while one is open). */
export async function merchantDiscounts(source: DiscountSource | undefined, merchantId: string): Promise<MerchantDiscounts> {
  return source ? source.active.get(merchantId) : NONE;
}

/** How the cart's discounts are priced; undefined when nothing could apply (no codes asked, no promotions). */
export async function discountContext(
  source: DiscountSource | undefined,
  request: { merchantId: string; merchant: MerchantDiscounts; codes: readonly string[]; email: string | undefined; now: Date; tx?: Tx | undefined },
): Promise<DiscountContext | undefined> {
  const { merchant, codes } = request;
  if (codes.length === 0 && merchant.promotions.length === 0) return undefined;
  const asked = new Set(codes.map(codeKey));
  const limited = merchant.codes.filter((code) => asked.has(codeKey(code.code)) && (code.usageLimit !== undefined || code.perCustomerLimit !== undefined)).map((code) => codeKey(code.code));
  const usage = source && limited.length ? await source.usage(request.merchantId, limited, request.email, request.tx) : undefined;
  return { merchant, codes, now: request.now, usage: usage && ((code) => usage.get(codeKey(code.code)) ?? { total: 0, customer: 0 }) };
}

/** The keys of the codes a session was priced with (what completion redeems). */
export function appliedCodeKeys(discounts: SessionDiscounts): string[] {
  return discounts.applied.filter((discount) => discount.kind === 'code' && discount.code !== undefined).map((discount) => codeKey(discount.code!));
}
