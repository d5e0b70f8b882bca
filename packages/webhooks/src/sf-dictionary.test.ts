import { describe, expect, it } from 'vitest';
import * as node from './index.js';
import * as web from './web-entry.js';
import { parseSfDictionary, SfSyntaxError, SfToken, type SfItem } from './ucp/sf-dictionary.js';

const item = (value: SfItem['value'], params: [string, SfItem['value']][] = []): SfItem => ({ value, params: new Map(params) });
/** A dictionary's member: its value and its text as received. */
const member = (text: string, value: SfItem['value'], params: [string, SfItem['value']][] = []) => ({ ...item(value, params), text });

describe('parseSfDictionary (RFC 8941 §4.2.2)', () => {
  it('reads every kind of member', () => {
    const dict = parseSfDictionary('a=1, b=-2.5, c="x\\"y", d=tok/en:1, e=?0, f=:aGk=:, g, h=(1 "two");p, i;q=*z, j=?1');
    expect(dict.get('a')).toEqual(member('1', 1));
    expect(dict.get('b')).toEqual(member('-2.5', -2.5));
    expect(dict.get('c')).toEqual(member('"x\\"y"', 'x"y'));
    expect(dict.get('d')).toEqual(member('tok/en:1', new SfToken('tok/en:1')));
    expect((dict.get('d') as SfItem).value).toBeInstanceOf(SfToken);
    expect(dict.get('e')).toEqual(member('?0', false));
    expect([...((dict.get('f') as SfItem).value as Uint8Array)]).toEqual([0x68, 0x69]); // "hi"
    expect(dict.get('g')).toEqual(member('?1', true));
    expect(dict.get('h')).toEqual({ items: [item(1), item('two')], params: new Map([['p', true]]), text: '(1 "two");p' });
    expect(dict.get('i')).toEqual(member('?1;q=*z', true, [['q', new SfToken('*z')]]));
    expect(dict.get('j')).toEqual(member('?1', true));
  });

  it('reads UCP-Agent as platforms send it', () => {
    const dict = parseSfDictionary('profile="https://agent.example/.well-known/ucp", version="2026-04-08"');
    expect([...dict.keys()]).toEqual(['profile', 'version']);
    expect(dict.get('profile')).toEqual(member('"https://agent.example/.well-known/ucp"', 'https://agent.example/.well-known/ucp'));
  });

  it('keeps the last of a key given twice, in its own place; reads parameters and optional whitespace', () => {
    const dict = parseSfDictionary('  a=1, b=2;x=?0;y="z",c=3,  a=4  ');
    expect([...dict.entries()]).toEqual([
      ['b', member('2;x=?0;y="z"', 2, [['x', false], ['y', 'z']])],
      ['c', member('3', 3)],
      ['a', member('4', 4)],
    ]);
    expect(parseSfDictionary('k=( 1  2 )').get('k')).toEqual({ items: [item(1), item(2)], params: new Map(), text: '( 1  2 )' });
    expect(parseSfDictionary('').size).toBe(0);
  });

  it('tolerates a byte sequence without its = padding (§4.2.7), and decodes the empty one', () => {
    expect([...((parseSfDictionary('f=:aGk:').get('f') as SfItem).value as Uint8Array)]).toEqual([0x68, 0x69]);
    expect((parseSfDictionary('f=::').get('f') as SfItem).value).toEqual(new Uint8Array(0));
  });

  it.each([
    'a=1,,b=2', // an empty member
    'a=1,', // a trailing comma
    'a=1 b', // no comma
    'A=1', // keys are lowercase
    '1a=1',
    'a=1.2345', // at most three fraction digits
    'a=1234567890123.5', // at most twelve integer digits in a decimal
    'a=1234567890123456', // at most fifteen digits in an integer
    'a=1.', // a decimal needs a fraction
    'a=?2',
    'a=:not base64!:',
    'a=:aGk=x:', // padding inside
    'a=:a:', // no whole byte
    'a=:aGk=', // unterminated
    'a=(1',
    'a=(1,2)',
    'a="x', // unterminated
    'a="caf\u00e9"', // non-ASCII in a string
    'a="a\\nb"', // only \" and \\ escape
    "a='x'",
    'a=@',
  ])('refuses %j', (field) => {
    expect(() => parseSfDictionary(field)).toThrow(SfSyntaxError);
  });

  it('says where the field broke', () => {
    expect(() => parseSfDictionary('a=1 b')).toThrow(/expected a comma between members at character 5/);
  });

  it('is exported by both entries', () => {
    for (const entry of [node, web]) {
      expect(entry.parseSfDictionary).toBe(parseSfDictionary);
      expect(entry.SfSyntaxError).toBe(SfSyntaxError);
      expect(entry.SfToken).toBe(SfToken);
    }
  });
});
