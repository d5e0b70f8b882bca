import { describe, expect, it } from 'vitest';
import { words } from './analyzer.js';

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
