import { describe, expect, it } from 'vitest';
import { planQuery } from './plan-query.js';

describe('planQuery', () => {
  it('understands the whole query, then searches its first 10 searched words', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
    const plan = planQuery(`${words.join(' ')} under 300`, {});
    expect(plan).toMatchObject({ text: words.slice(0, 10).join(' '), maxPrice: 300, filters: { maxPrice: 300 } });
  });

  it('searches a long word up to its 64th character', () => {
    expect(planQuery(`cheap ${'x'.repeat(400)}`, {})).toMatchObject({ text: 'x'.repeat(64), pricePreference: 'low' });
  });
});
