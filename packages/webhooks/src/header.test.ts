import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.js';
import { formatSignatureHeader, parseSignatureHeader } from './header.js';

const A = 'a'.repeat(64);
const B = '0123456789abcdef'.repeat(4);

describe('parseSignatureHeader', () => {
  it.each([
    ['one signature', `t=1700000000,v1=${A}`, 1_700_000_000, [A]],
    ['several signatures (rotation)', `t=1,v1=${A},v1=${B}`, 1, [A, B]],
    ['t after v1', `v1=${A},t=5`, 5, [A]],
    ['spaces around elements', ` t=5 , v1=${A} `, 5, [A]],
    ['uppercase hex, lowercased', `t=5,v1=${B.toUpperCase()}`, 5, [B]],
    ['unknown schemes skipped', `t=5,v0=old,v1=${A},v2=${'f'.repeat(96)},x=1`, 5, [A]],
    ['leading zeros in t', `t=0005,v1=${A}`, 5, [A]],
  ])('reads %s', (_, header, timestamp, signatures) => {
    expect(parseSignatureHeader(header)).toEqual({ timestamp, signatures });
  });

  it.each([
    ['an empty value', ''],
    ['no =', 'nonsense'],
    ['an empty key', `=5,t=5,v1=${A}`],
    ['no t', `v1=${A}`],
    ['two t', `t=1,t=2,v1=${A}`],
    ['a fractional t', `t=1.5,v1=${A}`],
    ['a t in exponent notation', `t=1e9,v1=${A}`],
    ['a negative t', `t=-1,v1=${A}`],
    ['an absurdly long t', `t=${'9'.repeat(16)},v1=${A}`],
    ['no v1', 't=5'],
    ['a v1 of 63 digits', `t=5,v1=${A.slice(1)}`],
    ['a v1 of 65 digits', `t=5,v1=${A}a`],
    ['a non-hex v1', `t=5,v1=${'g'.repeat(64)}`],
    ['one bad v1 among good ones', `t=5,v1=${A},v1=xyz`],
    ['a case-changed key', `T=5,v1=${A}`],
  ])('throws malformed_header on %s', (_, header) => {
    const parse = () => parseSignatureHeader(header);
    expect(parse).toThrow(WebhookVerificationError);
    expect(parse).toThrow(expect.objectContaining({ reason: 'malformed_header' }));
    expect(parse).toThrow(/expected t=<unix seconds>,v1=<64 lowercase hex>/);
  });
});

describe('formatSignatureHeader', () => {
  it.each([
    [1_700_000_000, [A], `t=1700000000,v1=${A}`],
    [0, [A, B], `t=0,v1=${A},v1=${B}`],
  ])('writes t=%i with its signatures', (timestamp, signatures, header) => {
    expect(formatSignatureHeader(timestamp, signatures)).toBe(header);
    expect(parseSignatureHeader(header)).toEqual({ timestamp, signatures });
  });

  it.each([
    ['a fractional timestamp', 1.5, [A]],
    ['a negative timestamp', -1, [A]],
    ['a NaN timestamp', Number.NaN, [A]],
    ['no signatures', 5, []],
    ['a non-hex signature', 5, ['xyz']],
  ])('refuses %s', (_, timestamp, signatures) => {
    expect(() => formatSignatureHeader(timestamp, signatures)).toThrow();
  });
});
