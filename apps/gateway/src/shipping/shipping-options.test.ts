import { describe, expect, it } from 'vitest';
import { addBusinessDays } from './business-days.js';
import { pricedOption, profileOptions, zoneFor } from './shipping-options.js';
import { parseShippingProfile } from './shipping-profile.js';

const profile = parseShippingProfile({
  zones: [
    { id: 'us', countries: ['US'], methods: [
      { id: 'standard', title: 'Standard', prices: { USD: 7 }, free_from: { USD: 100 } },
      { id: 'express', title: 'Express', prices: { USD: 15, EUR: 14 }, delivery_estimate: { min_business_days: 1, max_business_days: 2 } },
    ] },
    { id: 'remote', regions: ['US-AK', 'US-HI'], methods: [{ id: 'standard', title: 'Remote', prices: { USD: 25 } }] },
    { id: 'de', countries: ['DE'], methods: [{ id: 'standard', title: 'Standard', prices: { EUR: 9 } }] },
  ],
});

describe('zoneFor', () => {
  it.each([
    [{ country: 'US' }, 'us'],
    [{ country: 'us', region: 'ca' }, 'us'],
    [{ country: 'US', region: 'AK' }, 'remote'],
    [{ country: 'US', region: 'US-HI' }, 'remote'],
    [{ country: 'DE', region: 'BE' }, 'de'],
    [{ country: 'FR' }, undefined],
  ])('%o → %s', (destination, zone) => {
    expect(zoneFor(profile, destination)?.id).toBe(zone);
  });
});

describe('profileOptions', () => {
  it('prices each method in the cart currency, free from its threshold', () => {
    expect(profileOptions(profile, { country: 'US' }, 'USD', 9999n).map((o) => [o.id, o.amount])).toEqual([['standard', 700n], ['express', 1500n]]);
    expect(profileOptions(profile, { country: 'US' }, 'USD', 10000n).map((o) => [o.id, o.amount])).toEqual([['standard', 0n], ['express', 1500n]]);
  });
  it('offers only the methods priced in the currency, and nothing where no zone covers', () => {
    expect(profileOptions(profile, { country: 'US' }, 'EUR', 0n).map((o) => o.id)).toEqual(['express']);
    expect(profileOptions(profile, { country: 'DE' }, 'USD', 0n)).toEqual([]);
    expect(profileOptions(profile, { country: 'FR' }, 'USD', 0n)).toEqual([]);
  });
});

describe('pricedOption', () => {
  const options = [{ id: 'a', amount: 500n }, { id: 'b', amount: 300n }, { id: 'c', amount: 300n }];
  it('takes the chosen option while offered, else the cheapest (the first of equals)', () => {
    expect(pricedOption(options, 'a')?.id).toBe('a');
    expect(pricedOption(options, null)?.id).toBe('b');
    expect(pricedOption(options, 'gone')?.id).toBe('b');
    expect(pricedOption([], null)).toBeUndefined();
  });
});

describe('addBusinessDays', () => {
  it('skips weekends', () => {
    const friday = new Date('2026-11-27T10:00:00Z');
    expect(addBusinessDays(friday, 0).toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(addBusinessDays(friday, 1).toISOString()).toBe('2026-11-30T10:00:00.000Z');
    expect(addBusinessDays(friday, 5).toISOString()).toBe('2026-12-04T10:00:00.000Z');
  });
});

describe('parseShippingProfile', () => {
  it('allows a region beside its country in another zone, but not the same country twice', () => {
    expect(() => parseShippingProfile({ zones: [{ id: 'a', countries: ['US'], methods: [{ id: 's', title: 'S', prices: { USD: 1 } }] }, { id: 'b', countries: ['US'], methods: [{ id: 's', title: 'S', prices: { USD: 1 } }] }] }))
      .toThrow('$.zones[1].countries[0]: US is already covered by zone "a"');
  });
  it.each([
    [{ zones: [{ id: 'a', countries: ['us'], methods: [] }] }, '$.zones[0].countries[0]'],
    [{ zones: [{ id: 'a', countries: ['US'], methods: [{ id: 's', title: 'S', prices: { USD: 1 }, delivery_estimate: { min_business_days: 3, max_business_days: 1 } }] }] }, '$.zones[0].methods[0].delivery_estimate.max_business_days'],
    [{ zones: [{ id: 'a', countries: ['US'], methods: [{ id: 's', title: 'S', prices: {} }] }] }, '$.zones[0].methods[0].prices'],
    [{ zones: [{ id: 'a', countries: ['US'], methods: [{ id: 's', title: 'S', prices: { USD: 1 }, colour: 'red' }] }] }, '$.zones[0].methods[0].colour'],
    [{ zones: [{ id: 'a', regions: ['US-'], methods: [] }] }, '$.zones[0].regions[0]'],
  ])('refuses %j at %s', (document, path) => {
    expect(() => parseShippingProfile(document)).toThrow(expect.objectContaining({ param: path }));
  });
});
