import { describe, expect, it } from 'vitest';
import { MAX_WORD_LENGTH, truncate, words } from './analyzer.js';

describe('words', () => {
  it.each([
    ["Children's desk", ['children', 'desk']],
    ['CHILDREN’S DESK', ['children', 'desk']],
    ["Café's crème", ['cafe', 'creme']],
    ["it's o'clock", ['it', 'o', 'clock']],
    ["the 90's", ['the', '90', 's']],
    ["Lowe'sville 'sofa'", ['lowe', 'sville', 'sofa']],
    ['BILLY bookcase, 80x28', ['billy', 'bookcase', '80x28']],
  ])('reads %j as %j', (text, expected) => {
    expect(words(text)).toEqual(expected);
  });
});

describe('a long word', () => {
  it('is read up to MAX_WORD_LENGTH characters, in a product as in a query (so it still meets itself)', () => {
    expect(words(`oak ${'x'.repeat(500)} chair`)).toEqual(['oak', 'x'.repeat(MAX_WORD_LENGTH), 'chair']);
    expect(words(`Chaise ${'é'.repeat(100)}`)).toEqual(['chaise', 'e'.repeat(MAX_WORD_LENGTH)]);
  });

  it('of CJK characters is one word (a run of letters: CJK is not segmented), cut like any other', () => {
    expect(words('木製の椅子')).toEqual(['木製の椅子']);
    expect(words('椅'.repeat(500))).toEqual(['椅'.repeat(MAX_WORD_LENGTH)]);
  });

  it('is cut by code points, never inside a surrogate pair', () => {
    expect(truncate('𠀀'.repeat(3), 2)).toBe('𠀀𠀀');
    expect(truncate('ab', 5)).toBe('ab');
  });
});
