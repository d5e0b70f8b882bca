import type { ForwardIndex } from './forward-index.js';

/**
 * A merchant's index as arrays, without the engine's numbering (a persisted snapshot's part,
 * catalog/read-model/catalog-snapshots.ts): the forward index's term ids are indexes of `terms` (with the word each was
 * seen as, `surfaces`), its attribute numbers indexes of `attributes`; row r is the product of the
 * catalog's columns' row r; vectors as the matrix's int8 codes (row-major, `dims` a row) and
 * per-row scales (cosine-matrix.ts).
 */
export interface IndexState {
  forward: ForwardIndex;
  terms: readonly string[];
  surfaces: readonly string[];
  attributes: readonly { stem: string; name: string; value: string }[];
  codes: Int8Array;
  scales: Float32Array;
  hasVector: Uint8Array;
  dims: number;
}
