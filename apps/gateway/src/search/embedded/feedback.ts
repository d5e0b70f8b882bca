/**
 * Pseudo-relevance feedback (Rocchio) for the ranking's similarity: the query vector moved
 * toward the mean vector of its FEEDBACK_DOCS nearest products, and a product's cosine to it.
 * Both read the matrix's quantized rows through its API (addRow, cosine), never a float copy.
 */
import type { CosineMatrix } from './cosine-matrix.js';

const FEEDBACK_DOCS = 5;
/**
 * With more candidates than one in this many rows, their cosines come from one kernel scan of every
 * row (SIMD over int8 codes) rather than one JavaScript loop per candidate: at 200,000 products a
 * query matching tens of thousands of them spent most of its time there (CPU profile, bench:http:memory).
 */
const SCAN_SHARE = 10;

export class Feedback {
  constructor(
    private readonly matrix: CosineMatrix,
    private readonly hasVector: Uint8Array,
    private readonly size: number,
    private readonly dims: number,
  ) {}

  /** The query moved toward its nearest products, by `weight` (the matrix's cosines must hold the query's). */
  moved(vector: Float32Array, weight: number): Float32Array {
    const n = this.size;
    const cosines = this.matrix.cosines;
    // The FEEDBACK_DOCS best cosines, by insertion into a short sorted list.
    const nearest: number[] = [];
    // The cosine a row must beat to enter the list (the list's last, once full): one compare for most rows.
    let entry = -Infinity;
    for (let d = 0; d < n; d++) {
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
   * The cosines to a unit vector of the first `count` `candidates`, at their rows: `into`'s, or, with
   * many candidates, the matrix's own (every row's: the scan overwrites the query's cosines).
   */
  cosines(vector: Float32Array, candidates: Int32Array, count: number, into: Float32Array): Float32Array {
    if (this.matrix.kernel && count * SCAN_SHARE > this.size) {
      this.matrix.cosineAll(vector);
      return this.matrix.cosines;
    }
    for (let k = 0; k < count; k++) into[candidates[k]!] = this.cosine(vector, candidates[k]!);
    return into;
  }

  /** One product's cosine to a unit vector (0 without a vector). */
  cosine(vector: Float32Array, d: number): number {
    if (this.hasVector[d] !== 1) return 0;
    return this.matrix.cosine(d, vector);
  }
}
