import { describe, expect, it } from 'vitest';
import { storableEntry, storableText } from './storable-entry.js';

describe('storableText', () => {
  it.each([
    ['plain text, as it is', 'wh_123', 'wh_123'],
    ['a NUL, as its visible escape', 'a\u0000b', 'a\\u0000b'],
    ['an unpaired high surrogate', 'x\uD800', 'x\\uD800'],
    ['an unpaired low surrogate', '\uDC00y', '\\uDC00y'],
    ['a pair, kept (an emoji)', 'box 📦', 'box 📦'],
  ])('keeps %s', (_name, value, stored) => {
    expect(storableText(value)).toBe(stored);
  });

  it('cuts a value past 2,000 characters, marked with …', () => {
    const stored = storableText('x'.repeat(5_000));
    expect(stored).toHaveLength(2_001);
    expect(stored.endsWith('…')).toBe(true);
  });
});

describe('storableEntry', () => {
  it('makes every text of the entry storable, and leaves nulls and numbers alone', () => {
    const entry = storableEntry({
      operatorId: null,
      operation: 'unknown',
      method: 'POST',
      path: '/admin/merchants/%00',
      target: '\u0000',
      merchantId: null,
      outcome: 'refused',
      status: 400,
      detail: 'bad \uD800',
      requestId: 'req_1',
    });
    expect(entry).toEqual({ operatorId: null, operation: 'unknown', method: 'POST', path: '/admin/merchants/%00', target: '\\u0000', merchantId: null, outcome: 'refused', status: 400, detail: 'bad \\uD800', requestId: 'req_1' });
  });
});
