import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './fingerprint.js';

describe('requestFingerprint', () => {
  it.each([
    ['key order', '{"a":1,"b":{"c":2,"d":[1,2]}}', '{"b":{"d":[1,2],"c":2},"a":1}'],
    ['1.0 and 1', '{"quantity":1.0}', '{"quantity":1}'],
    ['whitespace', '{ "a" : [ 1 , 2 ] }', '{"a":[1,2]}'],
    ['exponent form', '{"n":1e2}', '{"n":100}'],
  ])('ignores %s', (_name, left, right) => {
    expect(requestFingerprint(JSON.parse(left))).toBe(requestFingerprint(JSON.parse(right)));
  });

  it.each([
    ['a different value', '{"a":1}', '{"a":2}'],
    ['array order', '{"a":[1,2]}', '{"a":[2,1]}'],
    ['a string that looks like a number', '{"a":1}', '{"a":"1"}'],
    ['an extra field', '{"a":1}', '{"a":1,"b":null}'],
  ])('tells apart %s', (_name, left, right) => {
    expect(requestFingerprint(JSON.parse(left))).not.toBe(requestFingerprint(JSON.parse(right)));
  });

  it('treats no body as an empty object', () => {
    expect(requestFingerprint(undefined)).toBe(requestFingerprint({}));
  });

  it('writes canonical JSON', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: 'x' })).toBe('{"a":"x","b":[{"c":2,"d":1}]}');
  });
});
