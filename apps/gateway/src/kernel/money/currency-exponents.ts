/**
 * ISO 4217 minor-unit exponents: how many decimal places a currency's amounts have.
 * A currency not listed is treated as having the common exponent 2.
 */
const TWO_DECIMAL = [
  'AED', 'ARS', 'AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'COP', 'CZK', 'DKK', 'EGP', 'EUR', 'GBP', 'HKD',
  'HUF', 'IDR', 'ILS', 'INR', 'MAD', 'MXN', 'MYR', 'NGN', 'NOK', 'NZD', 'PEN', 'PHP', 'PKR', 'PLN',
  'QAR', 'RON', 'SAR', 'SEK', 'SGD', 'THB', 'TRY', 'TWD', 'UAH', 'USD', 'ZAR',
];
const ZERO_DECIMAL = [
  'BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF',
  'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF',
];
const THREE_DECIMAL = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
const FOUR_DECIMAL = ['CLF', 'UYW'];

/** Exponent by currency code. */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = Object.freeze({
  ...Object.fromEntries(TWO_DECIMAL.map((code) => [code, 2])),
  ...Object.fromEntries(ZERO_DECIMAL.map((code) => [code, 0])),
  ...Object.fromEntries(THREE_DECIMAL.map((code) => [code, 3])),
  ...Object.fromEntries(FOUR_DECIMAL.map((code) => [code, 4])),
});

export const DEFAULT_EXPONENT = 2;

/** The number of decimal places of `currency` (USD 2, JPY 0, KWD 3). */
export function currencyExponent(currency: string): number {
  return CURRENCY_EXPONENTS[currency.toUpperCase()] ?? DEFAULT_EXPONENT;
}
