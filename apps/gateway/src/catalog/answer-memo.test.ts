import { describe, expect, it } from 'vitest';
import { AnswerMemo } from './answer-memo.js';

describe('AnswerMemo', () => {
  it('answers only from the basis an answer was made from', () => {
    const memo = new AnswerMemo(10);
    const [first, second] = [{}, {}];
    memo.remember('q', first, { answer: 1 }); // asked the first time: not kept
    expect(memo.recall('q', (basis) => basis === first)).toBeUndefined();
    memo.remember('q', first, { answer: 1 });
    expect(memo.recall('q', (basis) => basis === first)).toEqual({ answer: 1 });
    expect(memo.recall('q', (basis) => basis === second)).toBeUndefined();
    expect(memo.recall('q', (basis) => basis === first)).toBeUndefined(); // a newer basis was asked for: the old answer is gone
    expect(memo.recall('other', () => true)).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the least recently asked first', () => {
    const memo = new AnswerMemo(2);
    const basis = {};
    const [a, b, c] = [{ n: 1 }, { n: 2 }, { n: 3 }];
    const current = (known: object) => known === basis;
    for (const [question, answer] of [['a', a], ['b', b], ['c', c]] as const) memo.remember(question, basis, answer); // each asked once before
    expect(memo.size).toBe(0);
    memo.remember('a', basis, a);
    memo.remember('b', basis, b);
    expect(memo.recall('a', current)).toBe(a);
    memo.remember('c', basis, c);
    expect([memo.recall('a', current), memo.recall('b', current), memo.recall('c', current)]).toEqual([a, undefined, c]);
    expect(memo.size).toBe(2);
  });

  it('keeps only what was asked for before within the window, so that a stream of distinct questions leaves nothing', () => {
    const memo = new AnswerMemo(2); // a window of 8 questions
    const basis = {};
    for (let i = 0; i < 100; i++) memo.remember(`distinct ${i}`, basis, { i });
    expect(memo.size).toBe(0);
    memo.remember('popular', basis, { n: 1 });
    for (let i = 0; i < 2; i++) memo.remember(`distinct again ${i}`, basis, { i });
    memo.remember('popular', basis, { n: 1 });
    expect(memo.recall('popular', (known) => known === basis)).toEqual({ n: 1 });
  });
});
