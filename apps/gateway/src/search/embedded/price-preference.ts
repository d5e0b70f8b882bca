/**
 * "cheap", "budget" (low) or "premium" (high): among the matches, a product's score is scaled
 * down by up to PRICE_WEIGHT by where its price sits between the matches' cheapest and
 * dearest (on a log scale, so that $20 vs $40 counts like $200 vs $400). A constraint-only
 * query ("cheap") then lists by price.
 */
import type { PricePreference } from '../search-engine.js';

export const PRICE_WEIGHT = 0.3;

export function preferPrice(preference: PricePreference, prices: Float64Array, candidates: Int32Array, count: number, scores: Float32Array): void {
  if (count === 0) return;
  let lo = Infinity;
  let hi = -Infinity;
  for (let c = 0; c < count; c++) {
    const p = Math.log1p(Math.max(0, prices[candidates[c]!]!));
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  const span = hi - lo;
  if (span <= 0) return;
  for (let c = 0; c < count; c++) {
    const d = candidates[c]!;
    const position = (Math.log1p(Math.max(0, prices[d]!)) - lo) / span;
    scores[d]! *= 1 - PRICE_WEIGHT * (preference === 'low' ? position : 1 - position);
  }
}
