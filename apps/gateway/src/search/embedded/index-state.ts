import type { ForwardIndex } from './forward-index.js';

/**
 * A merchant's index as arrays, without the engine's numbering (a persisted snapshot's part,
 * catalog/snapshots): the forward index's term ids are indexes of `terms` (with the word each was
 * seen as, `surfaces`), its attribute numbers indexes of `attributes`; row r is the product of the
 * catalog's columns' row r; vectors row-major, `dims` floats a row.
 */
export interface IndexState {
  forward: ForwardIndex;
  terms: readonly string[];
  surfaces: readonly string[];
  attributes: readonly { stem: string; name: string; value: string }[];
  vectors: Float32Array;
  hasVector: Uint8Array;
  dims: number;
}
