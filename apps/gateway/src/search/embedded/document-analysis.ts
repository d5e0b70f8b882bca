/**
 * A search document analysed into keyword terms, field by field (kept by the engine so that a
 * snapshot can be rebuilt after a change without analysing every document again).
 */
import { isWide } from '../catalog-columns.js';
import type { SearchDocument } from '../search-engine.js';
import { FIELDS } from './fields.js';
import type { TermDictionary } from './term-dictionary.js';

/**
 * The term ids of every field in one array, behind the fields' bounds: field f's terms are
 * `fields[fields[f]]` to `fields[fields[f + 1] - 1]` (the first FIELDS.length + 1 entries are
 * those bounds). One typed array per document rather than two: each costs its object, its
 * ArrayBuffer and a native backing store (measured with bench:http:heap), per product.
 */
export interface AnalyzedDocument {
  doc: SearchDocument;
  fields: Int32Array;
  /** The title or id holds a character at or above U+D800 (then code-point order needs the slow compare). */
  wideTitle: boolean;
}

export function analyzeDocument(doc: SearchDocument, dictionary: TermDictionary): AnalyzedDocument {
  const ids: number[] = [];
  const bounds: number[] = [FIELDS.length + 1];
  for (const field of FIELDS) {
    const text = field.text(doc);
    if (field.repeated && text.length < 200) ids.push(...dictionary.cached(text));
    else dictionary.analyze(text, ids);
    bounds.push(FIELDS.length + 1 + ids.length);
  }
  const fields = new Int32Array(bounds.length + ids.length);
  fields.set(bounds);
  fields.set(ids, bounds.length);
  return { doc, fields, wideTitle: isWide(doc.title) || isWide(doc.id) };
}
