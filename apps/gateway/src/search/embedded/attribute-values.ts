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

export function attributeWords(documents: readonly { doc: SearchDocument }[]): Map<string, AttributeWord> {
  const lists = new Map<string, { name: string; value: string; docs: number[] }>();
  documents.forEach(({ doc }, i) => {
    for (const [name, values] of Object.entries(doc.attributes)) {
      for (const value of values) {
        if (value.length > 40 || /^[a-z]+:\/\//i.test(value)) continue;
        const parts = words(value);
        if (parts.length === 0 || parts.length > MAX_VALUE_WORDS) continue;
        for (const word of parts) {
          if (STOP_WORDS.has(word) || /^\p{N}+$/u.test(word) || word.length < 2) continue;
          const key = stem(word);
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
