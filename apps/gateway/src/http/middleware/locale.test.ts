import { describe, expect, it } from 'vitest';
import { preferredLocale } from './locale.js';

describe('preferredLocale', () => {
  it.each([
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr-CH'],
    ['en;q=0.5, de-DE;q=0.9', 'de-DE'],
    ['de, fr', 'de'],
    ['*', undefined],
    ['en;q=0, fr;q=0.1', 'fr'],
    ['en;q=abc, es', 'es'],
    ['en;q=1.5', undefined],
    ['<script>, ja', 'ja'],
    ['', undefined],
    [undefined, undefined],
    ['x'.repeat(600), undefined],
  ])('reads %j as %j', (header, expected) => {
    expect(preferredLocale(header)).toBe(expected);
  });
});
