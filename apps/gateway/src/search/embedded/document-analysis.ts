/**
 * A search document analysed into keyword terms, field by field, and attribute words: a row of
 * the snapshot's forward index (forward-index.ts), from which a snapshot is made again after a
 * change without analysing every document again, and without the document (its text is not kept).
 *
 * A row holds the term ids of every field, then the attribute words' numbers
 * (attribute-values.ts), behind their bounds: field f's terms are `row[row[f]]` to
 * `row[row[f + 1] - 1]`, the attribute words follow to `row[FIELDS.length + 1] - 1` (the first
 * FIELDS.length + 2 entries are those bounds, relative to the row's start).
 */
import type { SearchDocument } from '../search-engine.js';
import type { AttributeValues } from './attribute-values.js';
import { FIELDS } from './fields.js';
import type { ForwardIndex } from './forward-index.js';
import type { TermDictionary } from './term-dictionary.js';

/** Where the attribute words' bounds sit in a row (after the fields' own). */
const ATTRIBUTES_AT = FIELDS.length;
const BOUNDS = FIELDS.length + 2;

/** A document's row of the forward index. */
export function analyzeDocument(doc: SearchDocument, dictionary: TermDictionary, attributes: AttributeValues): number[] {
  const row: number[] = new Array(BOUNDS).fill(0);
  row[0] = BOUNDS;
  FIELDS.forEach((field, f) => {
    const text = field.text(doc);
    if (field.repeated && text.length < 200) for (const id of dictionary.cached(text)) row.push(id);
    else dictionary.analyze(text, row);
    row[f + 1] = row.length;
  });
  attributes.numbersOf(doc.attributes, row);
  row[ATTRIBUTES_AT + 1] = row.length;
  return row;
}

/** The length of the row that starts at `data[base]` (its bounds, its terms and attribute words). */
export function rowLength(data: Int32Array, base: number): number {
  return data[base + ATTRIBUTES_AT + 1]!;
}

/** Row i's attribute words (numbers of the engine's AttributeValues). */
export function* attributeNumbers(forward: ForwardIndex, i: number): Generator<number> {
  const { starts, data } = forward;
  const base = starts[i]!;
  for (let k = base + data[base + ATTRIBUTES_AT]!; k < base + data[base + ATTRIBUTES_AT + 1]!; k++) yield data[k]!;
}

/**
 * The forward index with every term id and attribute number mapped (renumbered for another
 * engine's dictionary and attribute values: a persisted snapshot, catalog/read-model/catalog-snapshots.ts).
 */
export function renumbered(
  forward: ForwardIndex,
  term: (id: number) => number,
  attribute: (number: number) => number,
  { inPlace = false }: { inPlace?: boolean } = {},
): ForwardIndex {
  const { size, starts } = forward;
  // In place when the caller gives the arrays up (a snapshot just read): at a million products the copy is hundreds of MB.
  const data = inPlace ? forward.data : forward.data.slice();
  for (let i = 0; i < size; i++) {
    const base = starts[i]!;
    const attributesFrom = base + data[base + ATTRIBUTES_AT]!;
    const end = base + data[base + ATTRIBUTES_AT + 1]!;
    for (let k = base + BOUNDS; k < attributesFrom; k++) data[k] = term(data[k]!);
    for (let k = attributesFrom; k < end; k++) data[k] = attribute(data[k]!);
  }
  return { size, starts, data };
}
