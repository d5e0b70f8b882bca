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

  it('finds exactly what a full table finds, for words short and long, over a dense vocabulary (its walk skips and its band change nothing)', () => {
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const text = (length: number) => Array.from({ length }, () => 'abcd'[Math.floor(next() * 4)]).join('');
    const terms = [...new Set(Array.from({ length: 400 }, () => text(2 + Math.floor(next() * 14))))];
    const dense = new Vocabulary(terms.map((t, i) => [t, i] as const));
    for (const length of [1, 3, 5, 8, 12, 15, 17, 19, 30]) {
      for (let n = 0; n < 8; n++) {
        const word = text(length);
        const distances = terms.map((t) => (Math.abs(t.length - word.length) > 2 ? 3 : distance(word, t)));
        for (const k of [1, 2]) {
          for (const sameFirst of [false, true]) {
            const found = dense.fuzzy(word, k, sameFirst).map((m) => `${terms[m.id]}:${m.distance}`).sort();
            const expected = terms
              .map((t, i) => [t, distances[i]!] as const)
              .filter(([t, d]) => t !== word && (!sameFirst || t[0] === word[0]) && d <= k)
              .map(([t, d]) => `${t}:${d}`)
              .sort();
            expect(found).toEqual(expected);
          }
        }
      }
    }
  });

  it('walks no term for a word longer than every term by more than its typos', () => {
    const work = { rows: 0, cells: 0 };
    expect(vocabulary.fuzzy('x'.repeat(12), 2, false, work)).toEqual([]);
    expect(work.rows).toBe(0);
    expect(vocabulary.fuzzy('chiar', 1, false, work).map((m) => words[m.id])).toEqual(['chair']);
    expect(work.rows).toBeGreaterThan(0);
  });
});
