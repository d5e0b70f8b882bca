/**
 * Money in integer minor units (bigint) of a currency, and the conversions to and
 * from the major-unit numbers the contract shows. No arithmetic is done on floats:
 * a catalog price is read through its shortest decimal string and rounded half up.
 */
import { currencyExponent } from './currency-exponents.js';

/**
 * The largest price a catalog import takes, in major units: 10^11 × 10^4 (the largest exponent)
 * stays below 2^53, so one unit of any price is exact in minor units in every currency.
 */
export const MAX_CATALOG_PRICE = 100_000_000_000;

/** Matches an unsigned decimal such as `12`, `12.5` or `.5`. */
const DECIMAL = /^(\d*)(?:\.(\d*))?$/;

/** The shortest decimal digits of a finite, non-negative number, never in exponent notation. */
function decimalString(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  if (value >= 1e21) throw new RangeError(`amount ${text} is too large`);
  return value.toFixed(100).replace(/0+$/, ''); // tiny values (< 1e-6): exact digits of the double
}

/** Half-up rounding of the decimal `whole.fraction` to `digits` fractional digits, as an integer of 10^-digits. */
function roundDecimal(whole: string, fraction: string, digits: number): bigint {
  const kept = (fraction + '0'.repeat(digits)).slice(0, digits);
  const next = fraction.charCodeAt(digits) || 48; // '0' when there is no further digit
  const units = BigInt((whole || '0') + kept);
  return next >= 53 /* '5' */ ? units + 1n : units;
}

/** A major-unit amount (e.g. 10.67 USD) as integer minor units (1067n), rounded half up. */
export function toMinor(major: number, currency: string): bigint {
  if (!Number.isFinite(major) || major < 0) throw new RangeError(`amount ${major} is not a non-negative number`);
  const match = DECIMAL.exec(decimalString(major));
  if (!match) throw new RangeError(`amount ${major} is not a decimal`);
  return roundDecimal(match[1] ?? '', match[2] ?? '', currencyExponent(currency));
}

/** Integer minor units (1067n USD) as the major-unit number the contract shows (10.67). */
export function toMajor(minor: bigint, currency: string): number {
  if (minor < 0n) throw new RangeError(`amount ${minor} is negative`);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount ${minor} is too large to show exactly`);
  const exponent = currencyExponent(currency);
  if (exponent === 0) return Number(minor);
  const digits = minor.toString().padStart(exponent + 1, '0');
  return Number(`${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
}

/** A rate such as 0.0725 as an exact fraction (725n / 10000n), from its shortest decimal string. */
function rateFraction(rate: number): { numerator: bigint; denominator: bigint } {
  const match = DECIMAL.exec(decimalString(rate));
  if (!match) throw new RangeError(`rate ${rate} is not a decimal`);
  const fraction = match[2] ?? '';
  return { numerator: BigInt((match[1] || '0') + fraction), denominator: 10n ** BigInt(fraction.length) };
}

/** `minor` × `rate`, rounded half up once (e.g. 10533n × 0.0725 = 763.64… → 764n). */
export function applyRate(minor: bigint, rate: number): bigint {
  if (!Number.isFinite(rate) || rate < 0) throw new RangeError(`rate ${rate} is not a non-negative number`);
  const { numerator, denominator } = rateFraction(rate);
  return (2n * minor * numerator + denominator) / (2n * denominator);
}

/**
 * Splits `total` over `weights` in proportion, in whole minor units, so that the parts add up to
 * `total` exactly (largest remainder; ties to the earlier part). Used to show each line's share
 * of the cart's tax (computed once on the taxable subtotal), and a discount over the lines it applies to.
 */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const parts = weights.map((w) => (total * w) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (total * w) % sum }));
  let left = total - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return parts;
}
