/**
 * Pseudo-relevance feedback (Rocchio) for the ranking's similarity: the query vector moved
 * toward the mean vector of its FEEDBACK_DOCS nearest products, and a product's cosine to it.
 * Both read the matrix's quantized rows through its API (addRow, cosinesAt), never a float copy.
 */
import type { CosineMatrix } from './cosine-matrix.js';

const FEEDBACK_DOCS = 5;
/**
 * With more candidates than one in this many rows, their cosines come from one scan of every row
 * (four rows a pass, in order) rather than from the rows listed (one at a time, scattered).
 */
const SCAN_SHARE = 3;

export class Feedback {
  constructor(
    private readonly matrix: CosineMatrix,
    private readonly size: number,
    private readonly dims: number,
  ) {}

  /**
   * The query moved toward its nearest products, by `weight` (the matrix's cosines must hold the
   * query's). `close` lists (in row order) the first `closeCount` rows whose cosine reaches some
   * bound: with FEEDBACK_DOCS of them or more, the nearest are among them and no other row is read.
   */
  moved(vector: Float32Array, weight: number, close: Int32Array, closeCount: number): Float32Array {
    const cosines = this.matrix.cosines;
    const among = closeCount >= FEEDBACK_DOCS;
    const rows = among ? closeCount : this.size;
    // The FEEDBACK_DOCS best cosines, by insertion into a short sorted list (the earlier row first among equals).
    const nearest: number[] = [];
    // The cosine a row must beat to enter the list (the list's last, once full): one compare for most rows.
    let entry = -Infinity;
    for (let k = 0; k < rows; k++) {
      const d = among ? close[k]! : k;
      const c = cosines[d]!;
      if (c <= entry) continue;
      let at = nearest.length < FEEDBACK_DOCS ? nearest.length : FEEDBACK_DOCS - 1;
      while (at > 0 && cosines[nearest[at - 1]!]! < c) {
        if (at < FEEDBACK_DOCS) nearest[at] = nearest[at - 1]!;
        at--;
      }
      nearest[at] = d;
      if (nearest.length === FEEDBACK_DOCS) entry = cosines[nearest[FEEDBACK_DOCS - 1]!]!;
    }
    const dims = this.dims;
    const out = Float32Array.from(vector);
    for (const d of nearest) this.matrix.addRow(d, weight / nearest.length, out);
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += out[i]! * out[i]!;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < dims; i++) out[i]! /= norm;
    return out;
  }

  /**
   * The cosines to a unit vector of the first `count` `candidates`, at their rows of the matrix's
   * `cosines` (which held the query's: they are overwritten, other rows' too when every row is scanned).
   */
  cosines(vector: Float32Array, candidates: Int32Array, count: number): Float32Array {
    if (count * SCAN_SHARE > this.size) this.matrix.cosineAll(vector);
    else this.matrix.cosinesAt(vector, candidates, count);
    return this.matrix.cosines;
  }
}
