import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson (RFC 8785)', () => {
  it.each([
    [{ b: 1, a: [3, { d: null, c: 'x' }] }, '{"a":[3,{"c":"x","d":null}],"b":1}'],
    [{ '\u00e9': 1, z: 2, A: 3 }, '{"A":3,"z":2,"é":1}'],
    [[1.0, 1e21, 0.1, -0], '[1,1e+21,0.1,0]'],
    ['line\nbreak "q"', '"line\\nbreak \\"q\\""'],
    [{}, '{}'],
  ])('writes %j as %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });
});
