import { describe, expect, it } from 'vitest';
import { responseExcerpt } from './response-excerpt.js';

describe('responseExcerpt', () => {
  it.each([
    ['a short body whole', Buffer.from('{"ok":true}'), 512, '{"ok":true}'],
    ['an empty body as empty text', Buffer.alloc(0), 512, ''],
    ['a long body cut at the limit', Buffer.from('x'.repeat(600)), 512, 'x'.repeat(512)],
    ['before a character the cut would split', Buffer.from('ab✓'), 4, 'ab'],
    ['a character that ends at the limit', Buffer.from('ab✓cd'), 5, 'ab✓'],
    ['bytes that are not UTF-8 as U+FFFD', Buffer.from([0x61, 0xff, 0x62]), 512, 'a\uFFFDb'],
    ['NUL as U+FFFD', Buffer.from('a\u0000b'), 512, 'a\uFFFDb'],
  ])('keeps %s', (_name, body, max, expected) => {
    expect(responseExcerpt(body, max)).toBe(expected);
  });

  it('never exceeds the limit in bytes', () => {
    const body = Buffer.from('é'.repeat(400));
    expect(Buffer.byteLength(responseExcerpt(body))).toBeLessThanOrEqual(512);
    expect(responseExcerpt(body)).toBe('é'.repeat(256));
  });
});
