/**
 * An RFC 8941 (Structured Field Values for HTTP) Dictionary parser, strict as §4.2 asks: any syntax
 * error fails the whole field (SfSyntaxError). Complete for what a dictionary holds — strings,
 * tokens, integers, decimals, booleans, byte sequences, inner lists and parameters; a key given
 * twice keeps its last value, in its own place (§4.2.2). The syntax of UCP's `UCP-Agent` header:
 * `profile="https://…", version="2026-04-08"`. No node: imports (the edge entry exports it too).
 *
 * The one RFC 8941 parser here: the signature headers (`Signature-Input`, `Signature`,
 * `Content-Digest`) are read with it too, each member keeping its text as received (RFC 9421's
 * signature base quotes `Signature-Input`'s member as sent).
 */
import { fromBase64 } from './bytes.js';

export type SfBareItem = string | number | boolean | SfToken | Uint8Array;

/** An sf-token (`foo`, `text/plain`), kept apart from an sf-string. */
export class SfToken {
  constructor(readonly value: string) {}
}

export interface SfItem {
  value: SfBareItem;
  params: Map<string, SfBareItem>;
}

export interface SfInnerList {
  items: SfItem[];
  params: Map<string, SfBareItem>;
}

/** A dictionary's member, with its value's text exactly as received (what follows `key=`, parameters included; `?1` and the parameters for a bare key), as RFC 9421's signature base needs the members of `Signature-Input`. */
export type SfDictionaryMember = (SfItem | SfInnerList) & { text: string };

/** The field is not a structured field of the expected type; the message says where. */
export class SfSyntaxError extends Error {
  override name = 'SfSyntaxError';
}

const KEY_START = /[a-z*]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const TOKEN_START = /[A-Za-z*]/;
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;

class Input {
  private at = 0;
  constructor(private readonly text: string) {}
  get done(): boolean {
    return this.at >= this.text.length;
  }
  get position(): number {
    return this.at;
  }
  since(from: number): string {
    return this.text.slice(from, this.at);
  }
  peek(): string {
    return this.text[this.at] ?? '';
  }
  next(): string {
    return this.text[this.at++] ?? '';
  }
  skip(pattern: RegExp): void {
    while (!this.done && pattern.test(this.peek())) this.at++;
  }
  fail(what: string): never {
    throw new SfSyntaxError(`${what} at character ${this.at + 1}`);
  }
}

function key(input: Input): string {
  if (!KEY_START.test(input.peek())) input.fail('expected a key (lowercase letter or *)');
  let out = input.next();
  while (!input.done && KEY_CHAR.test(input.peek())) out += input.next();
  return out;
}

function sfString(input: Input): string {
  input.next(); // "
  let out = '';
  for (;;) {
    if (input.done) input.fail('unterminated string');
    const char = input.next();
    if (char === '\\') {
      const escaped = input.next();
      if (escaped !== '"' && escaped !== '\\') input.fail('invalid escape in string');
      out += escaped;
    } else if (char === '"') {
      return out;
    } else {
      const code = char.charCodeAt(0);
      if (code < 0x20 || code > 0x7e) input.fail('invalid character in string');
      out += char;
    }
  }
}

function sfNumber(input: Input): number {
  let text = '';
  if (input.peek() === '-') text += input.next();
  if (!/[0-9]/.test(input.peek())) input.fail('expected a digit');
  let decimal = false;
  while (!input.done && /[0-9.]/.test(input.peek())) {
    const char = input.next();
    if (char === '.') {
      if (decimal) input.fail('a second decimal point');
      decimal = true;
    }
    text += char;
  }
  const [whole = '', fraction] = text.replace('-', '').split('.');
  if (!decimal && whole.length > 15) input.fail('integer longer than 15 digits');
  if (decimal && (whole.length > 12 || !fraction || fraction.length > 3)) input.fail('malformed decimal');
  return Number(text);
}

/** §4.2.7: base64 between colons; a missing `=` padding is tolerated, as parsers SHOULD. */
function byteSequence(input: Input): Uint8Array {
  input.next(); // :
  let text = '';
  while (input.peek() !== ':') {
    if (input.done || !/[A-Za-z0-9+/=]/.test(input.peek())) input.fail('invalid byte sequence');
    text += input.next();
  }
  input.next();
  const bare = text.replace(/=+$/, '');
  const bytes = bare.includes('=') ? undefined : fromBase64(bare + '='.repeat((4 - (bare.length % 4)) % 4));
  if (!bytes) input.fail('invalid base64 in byte sequence');
  return bytes;
}

function bareItem(input: Input): SfBareItem {
  const char = input.peek();
  if (char === '-' || /[0-9]/.test(char)) return sfNumber(input);
  if (char === '"') return sfString(input);
  if (char === ':') return byteSequence(input);
  if (char === '?') {
    input.next();
    const value = input.next();
    if (value !== '0' && value !== '1') input.fail('a boolean is ?0 or ?1');
    return value === '1';
  }
  if (TOKEN_START.test(char)) {
    let out = input.next();
    while (!input.done && TOKEN_CHAR.test(input.peek())) out += input.next();
    return new SfToken(out);
  }
  return input.fail('expected a value');
}

function parameters(input: Input): Map<string, SfBareItem> {
  const params = new Map<string, SfBareItem>();
  while (input.peek() === ';') {
    input.next();
    input.skip(/ /);
    const name = key(input);
    let value: SfBareItem = true;
    if (input.peek() === '=') {
      input.next();
      value = bareItem(input);
    }
    params.set(name, value);
  }
  return params;
}

function innerList(input: Input): SfInnerList {
  input.next(); // (
  const items: SfItem[] = [];
  for (;;) {
    input.skip(/ /);
    if (input.peek() === ')') {
      input.next();
      return { items, params: parameters(input) };
    }
    if (input.done) input.fail('unterminated inner list');
    items.push({ value: bareItem(input), params: parameters(input) });
    if (input.peek() !== ' ' && input.peek() !== ')') input.fail('expected a space or ) in an inner list');
  }
}

/** The dictionary a field value holds; throws SfSyntaxError when it is not one. */
export function parseSfDictionary(field: string): Map<string, SfDictionaryMember> {
  const input = new Input(field.replace(/^ +| +$/g, ''));
  const members = new Map<string, SfDictionaryMember>();
  while (!input.done) {
    const name = key(input);
    let member: SfDictionaryMember;
    if (input.peek() === '=') {
      input.next();
      const from = input.position;
      const value = input.peek() === '(' ? innerList(input) : { value: bareItem(input), params: parameters(input) };
      member = { ...value, text: input.since(from) };
    } else {
      const from = input.position;
      const params = parameters(input);
      member = { value: true, params, text: `?1${input.since(from)}` };
    }
    members.delete(name); // the last one wins, in its own place
    members.set(name, member);
    input.skip(/[ \t]/);
    if (input.done) break;
    if (input.peek() !== ',') input.fail('expected a comma between members');
    input.next();
    input.skip(/[ \t]/);
    if (input.done) input.fail('a trailing comma');
  }
  return members;
}
