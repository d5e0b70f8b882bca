import { describe, expect, it } from 'vitest';
import { FlatRateShippingProvider } from './shipping-provider.js';

const quote = (provider: FlatRateShippingProvider, currency: string, subtotal: bigint, requiresShipping = true) =>
  provider.quote({ currency, address: null, subtotal, requiresShipping });

describe('FlatRateShippingProvider', () => {
  const provider = new FlatRateShippingProvider();

  it.each([
    ['USD', 4999n, true, { method: 'standard', amount: 500n }],
    ['USD', 5000n, true, { method: 'standard', amount: 0n }],
    ['USD', 0n, true, { method: 'standard', amount: 500n }],
    ['USD', 100n, false, { method: 'none', amount: 0n }],
    ['JPY', 49n, true, { method: 'standard', amount: 5n }],
    ['JPY', 50n, true, { method: 'standard', amount: 0n }],
    ['KWD', 49999n, true, { method: 'standard', amount: 5000n }],
  ])('%s %d (ships: %s) → %o', async (currency, subtotal, ships, expected) => {
    expect(await quote(provider, currency, subtotal, ships)).toEqual(expected);
  });

  it('takes rates of its own, per currency too, and may never be free', async () => {
    const custom = new FlatRateShippingProvider({ rate: 7.5, freeFrom: null, byCurrency: { JPY: { rate: 800, freeFrom: 8000 } } });
    expect(await quote(custom, 'USD', 1_000_000n)).toEqual({ method: 'standard', amount: 750n });
    expect(await quote(custom, 'JPY', 7999n)).toEqual({ method: 'standard', amount: 800n });
    expect(await quote(custom, 'JPY', 8000n)).toEqual({ method: 'standard', amount: 0n });
  });

  it('refuses negative settings', () => {
    expect(() => new FlatRateShippingProvider({ rate: -1, freeFrom: 50 })).toThrow(RangeError);
    expect(() => new FlatRateShippingProvider({ rate: 5, freeFrom: -1 })).toThrow(RangeError);
  });
});
