import { describe, expect, it } from 'vitest';
import { SnapshotMemo } from './snapshot-memo.js';

describe('SnapshotMemo', () => {
  it('answers only for the snapshot an answer was computed from', () => {
    const memo = new SnapshotMemo<string>(10);
    const [first, second] = [{}, {}];
    memo.set('q', first, 'answer');
    expect(memo.get('q', first)).toBe('answer');
    expect(memo.get('q', second)).toBeUndefined();
    expect(memo.get('q', first)).toBeUndefined(); // a newer snapshot was asked for: the old answer is gone
    expect(memo.get('other', first)).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the least recently asked first', () => {
    const memo = new SnapshotMemo<number>(2);
    const snapshot = {};
    memo.set('a', snapshot, 1);
    memo.set('b', snapshot, 2);
    expect(memo.get('a', snapshot)).toBe(1);
    memo.set('c', snapshot, 3);
    expect([memo.get('a', snapshot), memo.get('b', snapshot), memo.get('c', snapshot)]).toEqual([1, undefined, 3]);
    expect(memo.size).toBe(2);
  });
});
