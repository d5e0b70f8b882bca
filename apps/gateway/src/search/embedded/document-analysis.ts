/**
 * A search document analysed into keyword terms, field by field (kept by the engine so that a
 * snapshot can be rebuilt after a change without analysing every document again).
 */
import { isWide } from '../catalog-columns.js';
import type { SearchDocument } from '../search-engine.js';
import { FIELDS } from './fields.js';
import type { TermDictionary } from './term-dictionary.js';

/** The term ids of every field in one array: field f in [offsets[f], offsets[f+1]). */
export interface AnalyzedDocument {
  doc: SearchDocument;
  terms: Int32Array;
  offsets: Uint16Array | Uint32Array;
  /** The title or id holds a character at or above U+D800 (then code-point order needs the slow compare). */
  wideTitle: boolean;
}

export function analyzeDocument(doc: SearchDocument, dictionary: TermDictionary): AnalyzedDocument {
  const ids: number[] = [];
  const offsets: number[] = [0];
  for (const field of FIELDS) {
    const text = field.text(doc);
    if (field.repeated && text.length < 200) ids.push(...dictionary.cached(text));
    else dictionary.analyze(text, ids);
    offsets.push(ids.length);
  }
  return {
    doc,
    terms: Int32Array.from(ids),
    offsets: ids.length < 65_536 ? Uint16Array.from(offsets) : Uint32Array.from(offsets),
    wideTitle: isWide(doc.title) || isWide(doc.id),
  };
}
