import { describe, expect, it } from 'vitest';
import { Vocabulary } from './vocabulary.js';

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

const words = ['chair', 'chairs', 'chain', 'chaise', 'bookcas', 'bookshelf', 'book', 'table', 'tabl', 'cable', 'stable', 'wardrob', 'billi', 'bill', 'armchair', 'a', 'ab', 'abc', 'sofa', 'sofabed'];
const vocabulary = new Vocabulary(words.map((w, i) => [w, i] as const));

describe('Vocabulary', () => {
  it.each(['chiar', 'bookcs', 'tabel', 'wardrbe', 'sofaa', 'xyz', 'chair', 'ab', 'billy', 'staple'])('finds exactly the terms within 1 and 2 edits of %s', (word) => {
    for (const k of [1, 2]) {
      const found = vocabulary.fuzzy(word, k).map((m) => `${words[m.id]}:${m.distance}`).sort();
      const expected = words.filter((w) => w !== word && distance(word, w) <= k).map((w) => `${w}:${distance(word, w)}`).sort();
      expect(found).toEqual(expected);
    }
  });

  it('lists the longer terms that start with a prefix', () => {
    expect(vocabulary.withPrefix('bil', 10).map((id) => words[id]).sort()).toEqual(['bill', 'billi']);
    expect(vocabulary.withPrefix('sofa', 10).map((id) => words[id])).toEqual(['sofabed']);
    expect(vocabulary.countPrefix('ch')).toBe(4);
  });
});
