/**
 * Pseudo-relevance feedback (Rocchio) for the ranking's similarity: the query vector moved
 * toward the mean vector of its FEEDBACK_DOCS nearest products, and a product's cosine to it.
 * Both read the matrix's quantized rows through its API (addRow, cosine), never a float copy.
 */
import type { CosineMatrix } from './cosine-matrix.js';

const FEEDBACK_DOCS = 5;

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
    for (let d = 0; d < n; d++) {
      const c = cosines[d]!;
      if (nearest.length === FEEDBACK_DOCS && c <= cosines[nearest[FEEDBACK_DOCS - 1]!]!) continue;
      let at = nearest.length < FEEDBACK_DOCS ? nearest.length : FEEDBACK_DOCS - 1;
      while (at > 0 && cosines[nearest[at - 1]!]! < c) {
        if (at < FEEDBACK_DOCS) nearest[at] = nearest[at - 1]!;
        at--;
      }
      nearest[at] = d;
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

  /** One product's cosine to a unit vector (0 without a vector). */
  cosine(vector: Float32Array, d: number): number {
    if (this.hasVector[d] !== 1) return 0;
    return this.matrix.cosine(d, vector);
  }
}
