import { describe, expect, it } from 'vitest';
import { understandQuery } from './understand-query.js';

describe('understandQuery', () => {
  it.each([
    ['sofa under 300', { text: 'sofa', maxPrice: 300 }],
    ['lamp under $50', { text: 'lamp', maxPrice: 50 }],
    ['desk below 200', { text: 'desk', maxPrice: 200 }],
    ['mug less than 20 dollars', { text: 'mug', maxPrice: 20 }],
    ['rug over 100', { text: 'rug', minPrice: 100 }],
    ['chair between 20 and 40', { text: 'chair', minPrice: 20, maxPrice: 40 }],
    ['chair between $40 and $20', { text: 'chair', minPrice: 20, maxPrice: 40 }],
    ['table 50-100', { text: 'table', minPrice: 50, maxPrice: 100 }],
    ['table $50 to $100', { text: 'table', minPrice: 50, maxPrice: 100 }],
    ['tv bench €1,200 or less', { text: 'tv bench', maxPrice: 1200 }],
    ['bed 2k and up', { text: 'bed', minPrice: 2000 }],
    ['under 50', { text: '', maxPrice: 50 }],
    ['cheap desk', { text: 'desk', pricePreference: 'low' }],
    ['budget office chair under 150', { text: 'office chair', maxPrice: 150, pricePreference: 'low' }],
    ['premium armchair', { text: 'armchair', pricePreference: 'high' }],
    ['around $100 kettle', { text: 'kettle', minPrice: 80, maxPrice: 120 }],
  ])('%s', (q, expected) => {
    const { text, minPrice, maxPrice, pricePreference } = understandQuery(q);
    expect({ text, ...(minPrice !== undefined && { minPrice }), ...(maxPrice !== undefined && { maxPrice }), ...(pricePreference && { pricePreference }) }).toEqual(expected);
  });

  it.each(['dining table with 6 chairs', 'chest of 3 drawers', 'samsung s7 32gb', 'bookcase 80x202 cm', 'x100 camera', 'cheapskate novel'])('leaves %s alone', (q) => {
    expect(understandQuery(q)).toEqual({ text: q });
  });
});
