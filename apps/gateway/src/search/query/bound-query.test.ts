import { describe, expect, it } from 'vitest';
import { MAX_WORD_LENGTH, words } from '../text/analyzer.js';
import { boundQuery, MAX_QUERY_WORDS, searchedLength } from './bound-query.js';

const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `word${i + from}`).join(' ');

describe('boundQuery', () => {
  it('reads 10 words, as Meilisearch does', () => {
    expect(MAX_QUERY_WORDS).toBe(10);
  });

  it.each(['oak chair', 'something to keep my coffee hot on the commute', '  BILLY bookcase, 80x28!  ', numbered(10), `${numbered(9)} the`])(
    'returns %j as it is: nothing to cut',
    (text) => {
      expect(boundQuery(text)).toBe(text);
    },
  );

  it('cuts after the 10th searched word, as if the query ended there', () => {
    expect(boundQuery(numbered(83))).toBe(numbered(10));
    expect(boundQuery(`${numbered(10)}, word11!`)).toBe(numbered(10));
    expect(boundQuery(`${numbered(10)} the`)).toBe(numbered(10));
  });

  it('does not count stop words, and keeps the ones between searched words with their separators', () => {
    const text = 'a chair, for my reading: with arms and a cushion; in oak or pine, under the window near a lamp and a rug';
    // chair reading arms cushion oak pine window near lamp rug: the 10th searched word is `rug`.
    expect(boundQuery(text)).toBe(text);
    expect(boundQuery(`${text} and a sofa`)).toBe(text);
  });

  it('reads a word up to MAX_WORD_LENGTH characters: one of 500 letters, 500 CJK characters (one run, one word)', () => {
    expect(MAX_WORD_LENGTH).toBe(64);
    expect(boundQuery(`oak ${'x'.repeat(500)} chair`)).toBe(`oak ${'x'.repeat(64)} chair`);
    const cjk = '椅'.repeat(500);
    expect(words(cjk)).toEqual(['椅'.repeat(64)]);
    expect(boundQuery(cjk)).toBe('椅'.repeat(64));
    expect(boundQuery('𠀀'.repeat(100) + 'a')).toBe('𠀀'.repeat(64)); // code points, never half a surrogate pair
  });

  it('is the same the second time: the engine and the embedder may bound again what the plan bounded', () => {
    for (const text of [numbered(83), `oak ${'x'.repeat(500)}`, '椅'.repeat(500), 'children’s desk, under 300']) {
      expect(boundQuery(boundQuery(text))).toBe(boundQuery(text));
    }
  });

  it('leaves out the runs that are only stop words when asked (an engine that counts them against its own limit)', () => {
    expect(boundQuery('a chair for the reading room', { dropStopWords: true })).toBe('chair reading room');
    expect(boundQuery(`the ${numbered(12)}`, { dropStopWords: true })).toBe(numbered(10));
  });
});

describe('searchedLength', () => {
  it('counts the words that take part: up to the 10th that is not a stop word', () => {
    expect(searchedLength(words(numbered(83)))).toBe(10);
    expect(searchedLength(words(`the ${numbered(10)} and more`))).toBe(11);
    expect(searchedLength(words('a b c'))).toBe(3);
  });
});
