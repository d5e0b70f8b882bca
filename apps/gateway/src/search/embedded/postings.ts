/**
 * BM25F postings: for each term, the documents holding it (in row order) with their saturated,
 * field-weighted term frequency, and the term's idf (fields.ts gives each field's weight and length
 * normalisation).
 *
 * Made whole from a forward index (two passes over its rows; every term's postings slices of two
 * shared arrays), or `patched` from the postings before a change of some rows: only the terms
 * those rows held or hold are made again, the others are shared with the postings before. A
 * patched snapshot keeps the field-length averages its postings were first made with (the changed
 * rows' share of them moves every row's weights by next to nothing); the next whole build takes
 * them afresh.
 */
import { FIELDS, K1 } from './fields.js';
import type { ForwardIndex } from './forward-index.js';

export interface Posting {
  docs: Int32Array;
  weights: Float32Array;
  idf: number;
}

/** A row's distinct terms with their saturated weights (weigh's output; reused between rows). */
interface Weighed {
  terms: number[];
  weights: number[];
}

export class Postings {
  private constructor(
    private readonly byTerm: Map<number, Posting>,
    /** Each field's average length (in terms) over the rows the postings were first made of. */
    private readonly averages: Float64Array,
    /** True when the postings hold the very terms of those they were patched from (see patched). */
    readonly sameTerms: boolean,
    /** The terms made again by patches, in arrays of their own (not the shared ones)… */
    private readonly rehomed: ReadonlySet<number>,
    /** …and the entries of the shared arrays nothing reads any more (those terms' old slices). */
    private readonly deadEntries: number,
    /** Entries in all. */
    private readonly entries: number,
  ) {}

  /** Two passes over the documents' rows (document-analysis.ts): document frequencies, then postings filled in place. */
  static build(forward: ForwardIndex, dictionarySize: number): Postings {
    const n = forward.size;
    const averages = fieldAverages(forward);
    const weigher = new Weigher(forward, averages, dictionarySize);
    const df = new Int32Array(dictionarySize);
    for (let d = 0; d < n; d++) for (const term of weigher.weigh(d).terms) df[term]!++;
    const offsets = offsetsOf(df);
    const allDocs = new Int32Array(offsets[dictionarySize]!);
    const allWeights = new Float32Array(offsets[dictionarySize]!);
    const fill = offsets.slice(0, dictionarySize);
    for (let d = 0; d < n; d++) {
      const { terms, weights } = weigher.weigh(d);
      for (let k = 0; k < terms.length; k++) {
        const at = fill[terms[k]!]!++;
        allDocs[at] = d;
        allWeights[at] = weights[k]!;
      }
    }
    const byTerm = new Map<number, Posting>();
    for (let term = 0; term < dictionarySize; term++) {
      const [from, to] = [offsets[term]!, offsets[term + 1]!];
      if (to > from) byTerm.set(term, { docs: allDocs.subarray(from, to), weights: allWeights.subarray(from, to), idf: idf(n, to - from) });
    }
    return new Postings(byTerm, averages, false, new Set(), 0, allDocs.length);
  }

  /**
   * The postings of `forward`: `before`'s forward index (`beforeForward`) with the rows `rows`
   * (ascending) replaced, no row added or removed. A term a changed row held or holds with another
   * weight is made again, in arrays of its own, from its old posting without them and their new weights merged
   * in by row; every other term's posting is `before`'s own (the same arrays). Once the old slices
   * of the terms made again (still held by the shared arrays, read by nobody) reach DEAD_SHARE of
   * the entries, all are copied into two shared arrays again and the old ones freed: the memory
   * held stays within 1 + DEAD_SHARE of the postings'. A common term (every product's vendor) is
   * made again by every change, but its old slice dies once.
   */
  static patched(before: Postings, beforeForward: ForwardIndex, forward: ForwardIndex, rows: readonly number[], dictionarySize: number): Postings {
    const n = forward.size;
    const changed = new Uint8Array(n);
    for (const row of rows) changed[row] = 1;
    // The changed rows' new terms and weights, term by term, in row order.
    const added = new Map<number, { docs: number[]; weights: number[] }>();
    const weigher = new Weigher(forward, before.averages, dictionarySize);
    for (const row of rows) {
      const { terms, weights } = weigher.weigh(row);
      terms.forEach((term, k) => {
        let entry = added.get(term);
        if (!entry) added.set(term, (entry = { docs: [], weights: [] }));
        entry.docs.push(row);
        entry.weights.push(weights[k]!);
      });
    }
    // The terms whose postings change: those a changed row held or holds with another weight than before
    // (a row's other terms, its vendor's say, keep their entries as they are).
    const touched = new Set<number>();
    const oldWeigher = new Weigher(beforeForward, before.averages, dictionarySize);
    for (const row of rows) {
      const old = new Map<number, number>();
      const { terms, weights } = oldWeigher.weigh(row);
      terms.forEach((term, k) => old.set(term, Math.fround(weights[k]!)));
      const now = weigher.weigh(row);
      now.terms.forEach((term, k) => {
        if (old.get(term) !== Math.fround(now.weights[k]!)) touched.add(term);
        old.delete(term);
      });
      for (const term of old.keys()) touched.add(term);
    }
    const byTerm = new Map(before.byTerm);
    const rehomed = new Set(before.rehomed);
    let { deadEntries, entries } = before;
    let sameTerms = true;
    for (const term of touched) {
      const held = before.byTerm.get(term);
      const fresh = added.get(term);
      let kept = 0;
      if (held) for (let k = 0; k < held.docs.length; k++) kept += 1 - changed[held.docs[k]!]!;
      const count = kept + (fresh?.docs.length ?? 0);
      const docs = new Int32Array(count);
      const weights = new Float32Array(count);
      let at = 0;
      let j = 0;
      const put = (doc: number, weight: number) => {
        docs[at] = doc;
        weights[at++] = weight;
      };
      if (held) {
        for (let k = 0; k < held.docs.length; k++) {
          const doc = held.docs[k]!;
          if (changed[doc]) continue;
          while (fresh && j < fresh.docs.length && fresh.docs[j]! < doc) put(fresh.docs[j]!, fresh.weights[j++]!);
          put(doc, held.weights[k]!);
        }
      }
      while (fresh && j < fresh.docs.length) put(fresh.docs[j]!, fresh.weights[j++]!);
      entries += count - (held?.docs.length ?? 0);
      if (held && !rehomed.has(term)) deadEntries += held.docs.length;
      if (count > 0) {
        byTerm.set(term, { docs, weights, idf: idf(n, count) });
        rehomed.add(term);
      } else {
        byTerm.delete(term);
        rehomed.delete(term);
      }
      if ((count > 0) !== (held !== undefined)) sameTerms = false;
    }
    if (deadEntries <= entries * DEAD_SHARE) return new Postings(byTerm, before.averages, sameTerms, rehomed, deadEntries, entries);
    return new Postings(shared(byTerm, entries), before.averages, sameTerms, new Set(), 0, entries);
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

/** See Postings.patched. */
const DEAD_SHARE = 0.25;

function idf(n: number, count: number): number {
  return Math.log(1 + (n - count + 0.5) / (count + 0.5));
}

/** The same postings, every term's a slice of two shared arrays. */
function shared(byTerm: ReadonlyMap<number, Posting>, entries: number): Map<number, Posting> {
  const allDocs = new Int32Array(entries);
  const allWeights = new Float32Array(entries);
  const out = new Map<number, Posting>();
  let at = 0;
  for (const [term, { docs, weights, idf }] of byTerm) {
    allDocs.set(docs, at);
    allWeights.set(weights, at);
    out.set(term, { docs: allDocs.subarray(at, at + docs.length), weights: allWeights.subarray(at, at + docs.length), idf });
    at += docs.length;
  }
  return out;
}

/** Each term's start in the shared arrays, and their length last. */
function offsetsOf(df: Int32Array): Int32Array {
  const offsets = new Int32Array(df.length + 1);
  for (let term = 0; term < df.length; term++) offsets[term + 1] = offsets[term]! + df[term]!;
  return offsets;
}

/** Each field's average length over the rows (1 when none). */
function fieldAverages(forward: ForwardIndex): Float64Array {
  const { size: n, starts, data } = forward;
  const averages = new Float64Array(FIELDS.length);
  for (let d = 0; d < n; d++) {
    const base = starts[d]!;
    for (let f = 0; f < FIELDS.length; f++) averages[f]! += data[base + f + 1]! - data[base + f]!;
  }
  for (let f = 0; f < FIELDS.length; f++) averages[f] = averages[f]! / Math.max(1, n) || 1;
  return averages;
}

/** A row's distinct terms and their BM25F weights, saturated (scratch arrays reused row after row). */
class Weigher {
  /** Each term's frequency in the row being weighed (all 0 between rows): one array for every Weigher, grown as the dictionary grows. */
  private static scratch = new Float64Array(0);
  private readonly tf: Float64Array;
  private readonly out: Weighed = { terms: [], weights: [] };

  constructor(
    private readonly forward: ForwardIndex,
    private readonly averages: Float64Array,
    dictionarySize: number,
  ) {
    if (Weigher.scratch.length < dictionarySize) Weigher.scratch = new Float64Array(Math.ceil(dictionarySize * 1.25));
    this.tf = Weigher.scratch;
  }

  /** Row d's terms and weights, valid until the next call. */
  weigh(d: number): Weighed {
    const { starts, data } = this.forward;
    const { tf, out } = this;
    const { terms, weights } = out;
    terms.length = 0;
    weights.length = 0;
    const base = starts[d]!;
    for (let f = 0; f < FIELDS.length; f++) {
      const start = base + data[base + f]!;
      const end = base + data[base + f + 1]!;
      if (end === start) continue;
      const field = FIELDS[f]!;
      const norm = field.weight / (1 - field.b + (field.b * (end - start)) / this.averages[f]!);
      for (let k = start; k < end; k++) {
        const term = data[k]!;
        if (tf[term] === 0) terms.push(term);
        tf[term]! += norm;
      }
    }
    for (const term of terms) {
      const value = tf[term]!;
      weights.push(value / (K1 + value));
      tf[term] = 0;
    }
    return out;
  }
}
