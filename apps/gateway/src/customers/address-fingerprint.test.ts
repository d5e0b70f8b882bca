import { describe, expect, it } from 'vitest';
import { addressFingerprint, tidyAddress } from './address-fingerprint.js';

describe('an address fingerprint', () => {
  it('is one for addresses that differ only in spacing and case', () => {
    const a = addressFingerprint({ name: 'Ada  Lovelace', line1: '12  Main St', city: 'Springfield ', state: 'il', country: 'us' });
    const b = addressFingerprint({ name: 'ada lovelace', line1: ' 12 main st', city: 'SPRINGFIELD', state: 'IL', country: 'US', line2: '  ' });
    expect(a).toBe(b);
    expect(JSON.parse(a)).toEqual({ name: 'ada lovelace', line1: '12 main st', city: 'springfield', state: 'il', country: 'US' });
  });

  it('tells apart addresses that differ in a field, and a field given from one left out', () => {
    const base = { line1: '12 Main St', city: 'Springfield', country: 'US' };
    expect(addressFingerprint(base)).not.toBe(addressFingerprint({ ...base, line2: 'Apt 4' }));
    expect(addressFingerprint(base)).not.toBe(addressFingerprint({ ...base, city: 'Shelbyville' }));
    expect(addressFingerprint({ ...base, line2: 'Apt 4' })).not.toBe(addressFingerprint({ ...base, state: 'Apt 4' }));
  });

  it('folds width and case of any script (NFKC), not only ASCII', () => {
    expect(addressFingerprint({ line1: 'ＭＡＩＮ Straße 1', city: 'KÖLN', country: 'de' })).toBe(addressFingerprint({ line1: 'main straße 1', city: 'köln', country: 'DE' }));
  });
});

describe('a tidy address', () => {
  it('is trimmed, its country upper-case, blank fields left out, inner spacing as given', () => {
    expect(tidyAddress({ name: ' Ada ', line1: '12  Main St ', line2: ' ', city: 'Springfield', country: 'us' })).toEqual({ name: 'Ada', line1: '12  Main St', city: 'Springfield', country: 'US' });
  });
});
