/**
 * Query understanding that needs no catalog: prices said in words become price bounds, and
 * words of price preference ("cheap", "premium") become a preference the engine ranks by.
 * What is understood is taken out of the text that is searched, so `sofa under 300` searches
 * `sofa` among products priced at most 300, and `under 50` alone lists everything under 50.
 *
 * Recognised (case-insensitive; a currency sign or word around the number is optional:
 * $ € £ ¥, usd, eur, gbp, dollars, euros, pounds, bucks):
 * - at most:  under, below, less than, cheaper than, up to, at most, no more than, max(imum), within, <, ≤, "N or less", "N and under"
 * - at least: over, above, more than, at least, from, starting at, min(imum), >, ≥, "N or more", "N and up", "N+"
 * - between:  between N and M, from N to M, N-M, N–M, N to M (with a money sign or word)
 * - around:   around, about, approximately, roughly, ~ N  → within ±20 % of N
 * - preference: cheap(est), budget, affordable, inexpensive, bargain, low-cost → low;
 *               expensive, premium, luxury, high-end → high
 */
export type PricePreference = 'low' | 'high';

export interface UnderstoodQuery {
  /** The words left to search (may be empty: the query was only a constraint). */
  text: string;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  pricePreference?: PricePreference | undefined;
}

const CURRENCY_SIGN = String.raw`[$€£¥]`;
const CURRENCY_WORD = String.raw`(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks|quid)`;
const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(k)?`;
const MONEY = String.raw`${CURRENCY_SIGN}?\s*${NUMBER}\s*(?:${CURRENCY_SIGN}|${CURRENCY_WORD}\b)?`;
/** A money amount that names its currency (a sign or a word): only then is a bare `N to M` a price. */
const MARKED_MONEY = String.raw`(?:${CURRENCY_SIGN}\s*${NUMBER}|${NUMBER}\s*(?:${CURRENCY_SIGN}|${CURRENCY_WORD}\b))`;

const AT_MOST = String.raw`(?:under|below|beneath|less\s+than|cheaper\s+than|lower\s+than|up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|max(?:imum)?|within|<=?|≤)`;
const AT_LEAST = String.raw`(?:over|above|more\s+than|greater\s+than|at\s+least|starting\s+(?:at|from)|min(?:imum)?|>=?|≥)`;
const AROUND = String.raw`(?:around|about|approximately|approx\.?|roughly|~)`;

interface Rule {
  pattern: RegExp;
  apply(match: RegExpExecArray, out: UnderstoodQuery): void;
}

function amount(digits: string | undefined, thousands: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const value = Number(digits.replace(/,/g, '')) * (thousands ? 1000 : 1);
  return Number.isFinite(value) ? value : undefined;
}

/** The first two amounts of a match (each NUMBER contributes a digits group and a `k` group). */
function amounts(match: RegExpExecArray): number[] {
  const out: number[] = [];
  for (let g = 1; g + 1 < match.length + 1; g += 2) {
    const value = amount(match[g], match[g + 1]);
    if (value !== undefined) out.push(value);
  }
  return out;
}

const bounded = (body: string) => new RegExp(String.raw`(?:^|(?<=[\s,;(]))(?:${body})(?=$|[\s,;.!?)])`, 'giu');

const RULES: Rule[] = [
  {
    pattern: bounded(String.raw`(?:between|from)\s+${MONEY}\s+(?:and|to|-|–)\s+${MONEY}`),
    apply(match, out) {
      const [a, b] = amounts(match);
      if (a !== undefined && b !== undefined) [out.minPrice, out.maxPrice] = [Math.min(a, b), Math.max(a, b)];
    },
  },
  {
    pattern: bounded(String.raw`${MONEY}\s*(?:-|–|—)\s*${MONEY}`),
    apply(match, out) {
      const [a, b] = amounts(match);
      if (a !== undefined && b !== undefined && a <= b) [out.minPrice, out.maxPrice] = [a, b];
    },
  },
  {
    pattern: bounded(String.raw`${MARKED_MONEY}\s+to\s+${MONEY}`),
    apply(match, out) {
      const [a, b] = amounts(match);
      if (a !== undefined && b !== undefined && a <= b) [out.minPrice, out.maxPrice] = [a, b];
    },
  },
  {
    pattern: bounded(String.raw`${AT_MOST}\s*${MONEY}|${MONEY}\s+(?:or|and)\s+(?:less|under|below|cheaper)`),
    apply(match, out) {
      const [a] = amounts(match);
      if (a !== undefined) out.maxPrice = a;
    },
  },
  {
    pattern: bounded(String.raw`${AT_LEAST}\s*${MONEY}|${MONEY}\s+(?:or|and)\s+(?:more|over|above|up)|${MONEY}\+`),
    apply(match, out) {
      const [a] = amounts(match);
      if (a !== undefined) out.minPrice = a;
    },
  },
  {
    pattern: bounded(String.raw`${AROUND}\s*${MARKED_MONEY}`),
    apply(match, out) {
      const [a] = amounts(match);
      if (a !== undefined) [out.minPrice, out.maxPrice] = [Math.floor(a * 0.8 * 100) / 100, Math.ceil(a * 1.2 * 100) / 100];
    },
  },
];

const LOW = /\b(?:cheap(?:est|er)?|budget|affordable|inexpensive|bargains?|low[\s-]?cost|low[\s-]?priced)\b/giu;
const HIGH = /\b(?:expensive|premium|luxury|luxurious|high[\s-]?end)\b/giu;
/** Words left over around a price once its amount is gone ("priced", "for", "price"). */
const PRICE_FILLER = /\b(?:priced|price[sd]?|costing|costs?|for|at|a|in|range|budget\s+of)\b/giu;

export function understandQuery(q: string): UnderstoodQuery {
  const out: UnderstoodQuery = { text: q };
  let text = ` ${q} `;
  let priced = false;
  // Every price rule needs a digit: a query without one (most, and a pasted wall of words) skips them all.
  for (const rule of /\d/.test(q) ? RULES : []) {
    rule.pattern.lastIndex = 0;
    const match = rule.pattern.exec(text);
    if (!match) continue;
    rule.apply(match, out);
    text = `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}`;
    priced = true;
  }
  if (LOW.test(text)) out.pricePreference = 'low';
  else if (HIGH.test(text)) out.pricePreference = 'high';
  LOW.lastIndex = 0;
  HIGH.lastIndex = 0;
  text = text.replace(LOW, ' ').replace(HIGH, ' ');
  if (priced || out.pricePreference) {
    // Only filler words left ("priced for") are dropped; anything else is what the shopper wants.
    const rest = text.replace(PRICE_FILLER, ' ').trim();
    text = rest === '' ? '' : text;
  }
  out.text = text.replace(/\s+/g, ' ').trim();
  return out;
}
