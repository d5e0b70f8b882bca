import { describe, expect, it } from 'vitest';
import { currencyExponent } from './currency-exponents.js';
import { applyRate, toMajor, toMinor } from './money.js';

describe('currencyExponent', () => {
  it.each([
    ['USD', 2], ['EUR', 2], ['GBP', 2], ['CAD', 2], ['AUD', 2], ['CHF', 2], ['SEK', 2],
    ['JPY', 0], ['KRW', 0], ['CLP', 0], ['BHD', 3], ['KWD', 3], ['jpy', 0], ['XYZ', 2],
  ])('%s has %d decimals', (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });
});

describe('toMinor', () => {
  it.each([
    [10.67, 'USD', 1067n],
    [0.1 + 0.2, 'USD', 30n], // 0.30000000000000004
    [1.005, 'USD', 101n], // 1.005 × 100 = 100.49999999999999 in floats; half up on the decimal
    [10.675, 'USD', 1068n],
    [10.674999, 'USD', 1067n],
    [0, 'USD', 0n],
    [48, 'USD', 4800n],
    [1e-7, 'USD', 0n],
    [0.005, 'USD', 1n],
    [1500, 'JPY', 1500n],
    [1499.5, 'JPY', 1500n],
    [1499.49, 'JPY', 1499n],
    [1.2345, 'KWD', 1235n],
    [9007199254740.99, 'USD', 900719925474099n],
  ])('%d %s → %d', (major, currency, minor) => {
    expect(toMinor(major, currency)).toBe(minor);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, 1e21])('refuses %d', (major) => {
    expect(() => toMinor(major, 'USD')).toThrow(RangeError);
  });
});

describe('toMajor', () => {
  it.each([
    [1067n, 'USD', 10.67],
    [5n, 'USD', 0.05],
    [0n, 'USD', 0],
    [30n, 'USD', 0.3],
    [1500n, 'JPY', 1500],
    [1235n, 'KWD', 1.235],
    [9409n, 'KWD', 9.409],
  ])('%d %s → %d', (minor, currency, major) => {
    expect(toMajor(minor, currency)).toBe(major);
  });

  it('refuses amounts it cannot show exactly', () => {
    expect(() => toMajor(BigInt(Number.MAX_SAFE_INTEGER) + 1n, 'USD')).toThrow(RangeError);
    expect(() => toMajor(-1n, 'USD')).toThrow(RangeError);
  });
});

describe('applyRate', () => {
  it.each([
    [10533n, 0.0725, 764n], // 763.6425
    [2134n, 0.0725, 155n], // 154.7150 → half up
    [10n, 0.05, 1n], // 0.5 → 1
    [9n, 0.05, 0n], // 0.45 → 0
    [6n, 0.2, 1n], // 1.2
    [10000n, 0, 0n],
    [370n, 0.19, 70n], // 70.3
    [3705n, 0.19, 704n], // 703.95
    [12345n, 1, 12345n],
  ])('%d × %d = %d', (minor, rate, expected) => {
    expect(applyRate(minor, rate)).toBe(expected);
  });
});
