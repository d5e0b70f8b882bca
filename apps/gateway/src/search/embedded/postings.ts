/**
 * BM25F postings: for each term, the documents holding it with their saturated, field-weighted
 * term frequency, and the term's idf (fields.ts gives each field's weight and length normalisation).
 */
import { FIELDS, K1 } from './fields.js';
import type { ForwardIndex } from './forward-index.js';
import type { TermDictionary } from './term-dictionary.js';

export interface Posting {
  docs: Int32Array;
  weights: Float32Array;
  idf: number;
}

export class Postings {
  private readonly byTerm = new Map<number, Posting>();

  /** Two passes over the documents' rows (document-analysis.ts): document frequencies, then postings filled in place. */
  constructor(forward: ForwardIndex, dictionarySize: number) {
    const n = forward.size;
    const { starts, data } = forward;
    const fieldCount = FIELDS.length;
    const averages = new Float64Array(fieldCount);
    for (let d = 0; d < n; d++) {
      const base = starts[d]!;
      for (let f = 0; f < fieldCount; f++) averages[f]! += data[base + f + 1]! - data[base + f]!;
    }
    for (let f = 0; f < fieldCount; f++) averages[f] = averages[f]! / Math.max(1, n) || 1;
    const tf = new Float64Array(dictionarySize);
    const df = new Int32Array(dictionarySize);
    const seen: number[] = [];
    const each = (d: number, visit: (term: number, value: number) => void) => {
      seen.length = 0;
      const base = starts[d]!;
      for (let f = 0; f < fieldCount; f++) {
        const start = base + data[base + f]!;
        const end = base + data[base + f + 1]!;
        if (end === start) continue;
        const field = FIELDS[f]!;
        const norm = field.weight / (1 - field.b + (field.b * (end - start)) / averages[f]!);
        for (let k = start; k < end; k++) {
          const term = data[k]!;
          if (tf[term] === 0) seen.push(term);
          tf[term]! += norm;
        }
      }
      for (const term of seen) {
        visit(term, tf[term]!);
        tf[term] = 0;
      }
    };
    for (let d = 0; d < n; d++) each(d, (term) => df[term]!++);
    // Every term's postings in two shared arrays, each term's at [offsets[term], offsets[term + 1]).
    const offsets = new Int32Array(dictionarySize + 1);
    for (let term = 0; term < dictionarySize; term++) offsets[term + 1] = offsets[term]! + df[term]!;
    const allDocs = new Int32Array(offsets[dictionarySize]!);
    const allWeights = new Float32Array(offsets[dictionarySize]!);
    const fill = offsets.slice(0, dictionarySize);
    for (let i = 0; i < n; i++) {
      each(i, (term, value) => {
        const at = fill[term]!++;
        allDocs[at] = i;
        allWeights[at] = value / (K1 + value);
      });
    }
    for (let term = 0; term < dictionarySize; term++) {
      const count = df[term]!;
      if (count === 0) continue;
      const [from, to] = [offsets[term]!, offsets[term + 1]!];
      this.byTerm.set(term, { docs: allDocs.subarray(from, to), weights: allWeights.subarray(from, to), idf: Math.log(1 + (n - count + 0.5) / (count + 0.5)) });
    }
  }

  /** A term's posting (the caller knows the catalog holds it: a matched term). */
  of(term: number): Posting {
    return this.byTerm.get(term)!;
  }

  has(term: number): boolean {
    return this.byTerm.has(term);
  }

  /** Documents holding a term. */
  df(term: number): number {
    return this.byTerm.get(term)?.docs.length ?? 0;
  }

  /** The terms the catalog holds. */
  terms(): IterableIterator<number> {
    return this.byTerm.keys();
  }
}
