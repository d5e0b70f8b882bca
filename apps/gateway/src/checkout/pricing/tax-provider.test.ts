import { describe, expect, it } from 'vitest';
import { RateTableTaxProvider } from './tax-provider.js';

describe('RateTableTaxProvider', () => {
  const provider = new RateTableTaxProvider();

  it.each([
    [{ country: 'US', state: 'CA' }, 0.0725],
    [{ country: 'us', state: 'ca' }, 0.0725],
    [{ country: 'US', state: ' NY ' }, 0.04],
    [{ country: 'US', state: 'TX' }, 0.0625],
    [{ country: 'US', state: 'WA' }, 0],
    [{ country: 'GB' }, 0.2],
    [{ country: 'DE', state: 'BY' }, 0.19],
    [{ country: 'FR' }, 0.2],
    [{ country: 'JP' }, 0.1],
    [{ country: 'BR' }, 0],
    [{ state: 'CA' }, 0],
    [null, 0],
  ])('rates %o at %d', (address, rate) => {
    expect(provider.rateFor(address)).toBe(rate);
  });

  it('taxes the taxable subtotal, rounded half up once', async () => {
    expect(await provider.quote({ currency: 'USD', address: { country: 'US', state: 'CA' }, taxableSubtotal: 10533n })).toEqual({ rate: 0.0725, amount: 764n });
    expect(await provider.quote({ currency: 'USD', address: null, taxableSubtotal: 10533n })).toEqual({ rate: 0, amount: 0n });
  });

  it('takes a table of its own, where a state entry wins over its country', async () => {
    const custom = new RateTableTaxProvider({ CA: 0.05, 'CA-QC': 0.14975 });
    expect(custom.rateFor({ country: 'CA', state: 'QC' })).toBe(0.14975);
    expect(custom.rateFor({ country: 'CA', state: 'ON' })).toBe(0.05);
    expect(custom.rateFor({ country: 'US', state: 'CA' })).toBe(0);
    expect((await custom.quote({ currency: 'CAD', address: { country: 'CA', state: 'QC' }, taxableSubtotal: 10000n })).amount).toBe(1498n);
  });

  it.each([[{ US: 1.5 }], [{ US: -0.1 }], [{ usa: 0.1 }], [{ 'US-': 0.1 }]])('refuses the table %o', (table) => {
    expect(() => new RateTableTaxProvider(table)).toThrow(RangeError);
  });
});
