/**
 * The catalog's own attribute values as query words: every word of a short, plain attribute
 * value (`color: Oak Brown`, `material: wool`, `size: XL` — not URLs, not plain numbers),
 * stemmed, with the documents that carry it. A query word found here is something the shopper
 * wants the product to have: it boosts those products instead of being required.
 */
import { stem, STOP_WORDS, words } from '../text/analyzer.js';
import type { SearchDocument, UnderstoodAttribute } from '../search-engine.js';

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

export function attributeWords(documents: readonly { doc: SearchDocument }[]): Map<string, AttributeWord> {
  const lists = new Map<string, { name: string; value: string; docs: number[] }>();
  // Values repeat across products (a colour, a designer): each distinct one is analysed once.
  const analysed = new Map<string, string[]>();
  documents.forEach(({ doc }, i) => {
    for (const [name, values] of Object.entries(doc.attributes)) {
      for (const value of values) {
        let stems = analysed.get(value);
        if (stems === undefined) analysed.set(value, (stems = valueStems(value)));
        for (const key of stems) {
          const entry = lists.get(key);
          if (!entry) lists.set(key, { name, value, docs: [i] });
          else if (entry.docs[entry.docs.length - 1] !== i) entry.docs.push(i);
        }
      }
    }
  });
  const out = new Map<string, AttributeWord>();
  for (const [key, { name, value, docs }] of lists) out.set(key, { name, value, docs: Int32Array.from(docs) });
  return out;
}
