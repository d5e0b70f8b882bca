/**
 * The catalog's own attribute values as query words: every word of a short, plain attribute
 * value (`color: Oak Brown`, `material: wool`, `size: XL` — not URLs, not plain numbers),
 * stemmed, with the documents that carry it. A query word found here is something the shopper
 * wants the product to have: it boosts those products instead of being required.
 *
 * An analysed document holds its attribute words as numbers of an engine-wide table
 * (AttributeValues: each distinct stem, name and value once), so that a snapshot is made again
 * after a change without the products' attributes.
 */
import { stem, STOP_WORDS, words } from '../text/analyzer.js';
import type { UnderstoodAttribute } from '../search-engine.js';

export interface AttributeWord extends UnderstoodAttribute {
  docs: Int32Array;
}

const MAX_VALUE_WORDS = 3;

/** The stems a value contributes (none for URLs, long values and numbers). */
function valueStems(value: string): string[] {
  if (value.length > 40 || /^[a-z]+:\/\//i.test(value)) return [];
  const parts = words(value);
  if (parts.length === 0 || parts.length > MAX_VALUE_WORDS) return [];
  return parts.filter((word) => !STOP_WORDS.has(word) && word.length >= 2 && !/^\d+$/.test(word)).map(stem);
}

interface AttributeValue extends UnderstoodAttribute {
  stem: string;
}

/** Every attribute word seen by one engine, numbered: a stem with the attribute name and value it was seen in. */
export class AttributeValues {
  private readonly numbers = new Map<string, number>();
  private readonly values: AttributeValue[] = [];
  /** Values repeat across products (a colour, a designer): each distinct one is analysed once. */
  private readonly analysed = new Map<string, string[]>();

  /** Appends the numbers of a product's attribute words, in the order of its attributes and their values. */
  numbersOf(attributes: Record<string, string[]>, out: number[]): void {
    for (const [name, values] of Object.entries(attributes)) {
      for (const value of values) {
        let stems = this.analysed.get(value);
        if (stems === undefined) {
          if (this.analysed.size >= 100_000) this.analysed.clear();
          this.analysed.set(value, (stems = valueStems(value)));
        }
        for (const stem of stems) out.push(this.number(stem, name, value));
      }
    }
  }

  /** The number of an attribute word (made if new). */
  number(stem: string, name: string, value: string): number {
    const key = `${stem}\u0000${name}\u0000${value}`;
    let number = this.numbers.get(key);
    if (number === undefined) {
      this.numbers.set(key, (number = this.values.length));
      this.values.push({ stem, name, value });
    }
    return number;
  }

  value(number: number): AttributeValue {
    return this.values[number]!;
  }
}

/**
 * The attribute words of a snapshot's documents (document i: `numbersOf(i)`, numbers of `values`),
 * each named by the first attribute and value it was seen in.
 */
export function attributeWords(count: number, numbersOf: (i: number) => Iterable<number>, values: AttributeValues): Map<string, AttributeWord> {
  const lists = new Map<string, { name: string; value: string; docs: number[] }>();
  for (let i = 0; i < count; i++) {
    for (const number of numbersOf(i)) {
      const { stem, name, value } = values.value(number);
      const entry = lists.get(stem);
      if (!entry) lists.set(stem, { name, value, docs: [i] });
      else if (entry.docs[entry.docs.length - 1] !== i) entry.docs.push(i);
    }
  }
  const out = new Map<string, AttributeWord>();
  for (const [key, { name, value, docs }] of lists) out.set(key, { name, value, docs: Int32Array.from(docs) });
  return out;
}

/**
 * `before`'s attribute words after the rows `rows` (ascending) changed (their words were
 * `oldNumbersOf(row)`, are `numbersOf(row)`): a word they held or hold gets its documents again,
 * without them and then with those that hold it now, in row order; every other word is kept as it
 * was (the same object). A word still held keeps the attribute and value it was named by.
 */
export function patchedAttributeWords(
  before: ReadonlyMap<string, AttributeWord>,
  rows: readonly number[],
  oldNumbersOf: (i: number) => Iterable<number>,
  numbersOf: (i: number) => Iterable<number>,
  values: AttributeValues,
): Map<string, AttributeWord> {
  const changed = new Set(rows);
  // The words the changed rows held or hold, each with the rows that hold it now and the value it was first seen in among them.
  const holding = new Map<string, { first?: AttributeValue; docs: number[] }>();
  const touch = (stem: string) => {
    let entry = holding.get(stem);
    if (!entry) holding.set(stem, (entry = { docs: [] }));
    return entry;
  };
  for (const row of rows) {
    for (const number of oldNumbersOf(row)) touch(values.value(number).stem);
    for (const number of numbersOf(row)) {
      const seen = values.value(number);
      const entry = touch(seen.stem);
      entry.first ??= seen;
      if (entry.docs[entry.docs.length - 1] !== row) entry.docs.push(row);
    }
  }
  const out = new Map(before);
  for (const [stem, { first, docs: fresh }] of holding) {
    const held = before.get(stem);
    const docs: number[] = [];
    let j = 0;
    for (const doc of held?.docs ?? []) {
      if (changed.has(doc)) continue;
      while (j < fresh.length && fresh[j]! < doc) docs.push(fresh[j++]!);
      docs.push(doc);
    }
    while (j < fresh.length) docs.push(fresh[j++]!);
    if (docs.length === 0) out.delete(stem);
    else out.set(stem, { name: held?.name ?? first!.name, value: held?.value ?? first!.value, docs: Int32Array.from(docs) });
  }
  return out;
}
