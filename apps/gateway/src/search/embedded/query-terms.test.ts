import { describe, expect, it } from 'vitest';
import { MAX_WORD_LENGTH } from '../text/analyzer.js';
import { MAX_QUERY_WORDS } from '../query/bound-query.js';
import { MAX_QUERY_TYPO_TERMS, MAX_TYPO_TERMS, MAX_TYPO_WORDS, queryWords, type TermLookup } from './query-terms.js';
import { Vocabulary, type FuzzyWork } from './vocabulary.js';

/** A catalog of `terms` (each its own stem), every typo search's work added to `work`. */
function catalog(terms: readonly string[]): TermLookup & { work: FuzzyWork } {
  const ids = new Map(terms.map((term, id) => [term, id]));
  const work: FuzzyWork = { rows: 0, cells: 0 };
  const vocabulary = new (class extends Vocabulary {
    override fuzzy(word: string, maxTypos: number, sameFirst?: boolean): ReturnType<Vocabulary['fuzzy']> {
      return super.fuzzy(word, maxTypos, sameFirst, work);
    }
  })([...ids]);
  return { work, find: (term) => ids.get(term), df: () => 1, vocabulary: () => vocabulary };
}

const letters = 'bcdfghjklmnpqrstvwxz';
/** Ten words the catalog lacks, each one typo away from every one of 20 catalog terms (its last letter changed). */
const misspelt = Array.from({ length: 10 }, (_, k) => `${letters[k]}${'a'.repeat(4)}y`);
const near = misspelt.flatMap((word) => [...letters].map((c) => word.slice(0, -1) + c));

describe('queryWords: the work a query may ask for is bounded', () => {
  it(`reads the first ${MAX_QUERY_WORDS} searched words: 83 words match as their first 10 do`, () => {
    const lookup = catalog(['oak', 'chair', 'pine', 'table']);
    const all = Array.from({ length: 83 }, (_, i) => (i === 3 ? 'oak' : i === 12 ? 'pine' : `zq${i}`));
    const first = queryWords(all.slice(0, 10).join(' '), lookup);
    expect(queryWords(all.join(' '), lookup)).toEqual(first);
    expect(first).toHaveLength(MAX_QUERY_WORDS);
    expect(first.map((w) => w.word)).not.toContain('pine');
  });

  it(`matches at most ${MAX_TYPO_TERMS} terms per word and typo distance, and ${MAX_QUERY_TYPO_TERMS} typo terms in all, given to the words in order`, () => {
    const found = queryWords(misspelt.join(' '), catalog(near), false);
    const typos = found.map((w) => w.matches.filter((m) => m.kind === 'typo1').length);
    expect(typos).toEqual([20, 20, 20, 0, 0, 0, 0, 0, 0, 0]);
  });

  it(`searches typos in at most ${MAX_TYPO_WORDS} words: the first the catalog lacks`, () => {
    const lookup = catalog(['oak', ...misspelt.map((word) => `${word.slice(0, -1)}b`)]);
    const found = queryWords(['oak', ...misspelt].join(' '), lookup, false);
    expect(found.map((w) => w.matches.map((m) => m.kind).join())).toEqual(['exact', 'typo1', 'typo1', 'typo1', 'typo1', '', '', '', '', '']);
  });

  it('searches no typos in a word of 500 letters: cut to 64, longer than every term by more than its 2 typos', () => {
    const lookup = catalog([...near, 'x'.repeat(20)]);
    const [word] = queryWords('x'.repeat(500), lookup);
    expect(word?.word).toBe('x'.repeat(MAX_WORD_LENGTH));
    expect(word?.matches).toEqual([]);
    expect(lookup.work.rows).toBe(0);
    queryWords('baaaaa', lookup); // a word of 6 letters is searched, and its work counted
    expect(lookup.work.rows).toBeGreaterThan(0);
  });

  it('reads 500 CJK characters as one word of 64 (the analyser does not segment CJK): one term looked up, no typo walk', () => {
    const lookup = catalog(['椅子', '木製']);
    const found = queryWords('椅'.repeat(500), lookup);
    expect(found.map((w) => w.word)).toEqual(['椅'.repeat(MAX_WORD_LENGTH)]);
    expect(lookup.work.rows).toBe(0);
  });

  it('costs a typo search at most 2 × typos + 1 cells a row, whatever the length of the word', () => {
    const long = 'c' + 'abcdefghij'.repeat(4);
    const lookup = catalog([long.slice(0, -1) + 'x', long.slice(0, 30) + 'zz', 'chair', 'cabinet']);
    expect(queryWords(`${long} oak`, lookup)[0]?.matches.map((m) => m.kind)).toEqual(['typo1']);
    expect(lookup.work.rows).toBeGreaterThan(0);
    expect(lookup.work.cells).toBeLessThanOrEqual(5 * lookup.work.rows);
  });
});
