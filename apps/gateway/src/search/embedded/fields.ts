/**
 * The searchable fields and how each counts in BM25F: `weight` multiplies a term's
 * frequency in the field, `b` is the field's length normalisation.
 */
import { attributeText } from '../product-text.js';
import type { SearchDocument } from '../search-engine.js';

export interface FieldSpec {
  name: string;
  weight: number;
  b: number;
  /** Short and repeated across products: worth caching its analysis. */
  repeated?: boolean;
  text(doc: SearchDocument): string;
}

export const FIELDS: readonly FieldSpec[] = [
  { name: 'title', weight: 3, b: 0.75, text: (d) => d.title },
  { name: 'category', weight: 1.5, b: 0.5, repeated: true, text: (d) => d.category },
  { name: 'tags', weight: 1.5, b: 0.5, repeated: true, text: (d) => d.tags.join(' ') },
  { name: 'vendor', weight: 0.5, b: 0, repeated: true, text: (d) => d.vendor },
  { name: 'attributes', weight: 0.3, b: 0.75, text: (d) => attributeText(d.attributes) },
  { name: 'description', weight: 1, b: 0.75, text: (d) => d.description },
];

/** BM25's term-frequency saturation. */
export const K1 = 1.2;
