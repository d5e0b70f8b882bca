/**
 * A snapshot's keyword vocabulary in sorted order, for the two ways a shopper's word may
 * differ from the catalog's: a typo (bounded Damerau–Levenshtein distance, optimal string
 * alignment) and an unfinished last word (prefix). The typo search walks the sorted terms as
 * if they were a trie: the dynamic-programming rows of a shared prefix are reused from the
 * previous term, and a whole run of terms sharing a prefix is skipped as soon as that prefix
 * is already too far from the word (the run's end found by each term's common prefix with the one
 * before it, a byte per term: no string is built or compared to skip). A word longer than every
 * term by more than its typos is no walk at all (an edit changes the length by at most one).
 */
export interface VocabularyMatch {
  /** The term's id in the engine's TermDictionary. */
  id: number;
  /** 0 for a prefix match; otherwise the number of typos. */
  distance: number;
}

/** What a typo search did, counted when asked for (tests: the work is bounded, not only the answer right). */
export interface FuzzyWork {
  /** Dynamic-programming rows computed: one per term character visited. */
  rows: number;
  /** Their cells. */
  cells: number;
}

export class Vocabulary {
  private readonly terms: string[];
  private readonly ids: Int32Array;
  /** Characters (UTF-16 code units) each term shares with the one before it, at most 255. */
  private readonly shared: Uint8Array;
  /** The longest term's length. */
  private readonly longest: number;

  /** `entries`: [term, id] pairs, in any order. */
  constructor(entries: readonly (readonly [string, number])[]) {
    const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.terms = sorted.map((e) => e[0]);
    this.ids = Int32Array.from(sorted, (e) => e[1]);
    this.shared = new Uint8Array(this.terms.length);
    let longest = 0;
    for (let i = 0; i < this.terms.length; i++) {
      const term = this.terms[i]!;
      longest = Math.max(longest, term.length);
      if (i === 0) continue;
      const before = this.terms[i - 1]!;
      const limit = Math.min(before.length, term.length, 255);
      let common = 0;
      while (common < limit && before.charCodeAt(common) === term.charCodeAt(common)) common++;
      this.shared[i] = common;
    }
    this.longest = longest;
  }

  get size(): number {
    return this.terms.length;
  }

  /** First index whose term is ≥ `key`. */
  private lowerBound(key: string, from = 0): number {
    let lo = from;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.terms[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Terms that start with `prefix` and are longer than it: at most `limit`, the first in sorted order. */
  withPrefix(prefix: string, limit: number): number[] {
    const out: number[] = [];
    for (let i = this.lowerBound(prefix); i < this.terms.length && out.length < limit; i++) {
      const term = this.terms[i]!;
      if (!term.startsWith(prefix)) break;
      if (term.length > prefix.length) out.push(this.ids[i]!);
    }
    return out;
  }

  /** How many terms start with `prefix` (the length of its run). */
  countPrefix(prefix: string): number {
    const start = this.lowerBound(prefix);
    return this.lowerBound(prefix + '\uffff', start) - start;
  }

  /**
   * Terms within `maxTypos` edits of `word` (the word itself excluded), with their distance;
   * `sameFirst`: only terms that start with the word's first character (far cheaper on a large vocabulary);
   * `work`: adds what the search did to it.
   */
  fuzzy(word: string, maxTypos: number, sameFirst = false, work?: FuzzyWork): VocabularyMatch[] {
    const out: VocabularyMatch[] = [];
    const m = word.length;
    if (maxTypos <= 0 || this.terms.length === 0 || m - maxTypos > this.longest) return out;
    const maxLen = m + maxTypos;
    const width = m + 1;
    // rows[d] is the DP row after the first d characters of the current term.
    const rows = new Int32Array((maxLen + 1) * width);
    for (let j = 0; j <= m; j++) rows[j] = j;
    const far = maxTypos + 1;
    // rows[1..valid] belong to the first `valid` characters of the last term walked; a term reuses as many as it
    // shares with that one: this.shared[i], also after a skipped run (every term skipped shared more with it).
    let valid = 0;
    let i = sameFirst ? this.lowerBound(word.slice(0, 1)) : 0;
    const n = sameFirst ? this.lowerBound(word.slice(0, 1) + '\uffff', i) : this.terms.length;
    while (i < n) {
      const term = this.terms[i]!;
      const common = Math.min(valid, this.shared[i]!);
      let pruned = -1;
      const depth = Math.min(term.length, maxLen);
      for (let d = common + 1; d <= depth; d++) {
        const c = term.charCodeAt(d - 1);
        const row = d * width;
        const up = (d - 1) * width;
        // Only the cells within maxTypos of the diagonal can hold a distance ≤ maxTypos (Ukkonen's band):
        // each row costs 2 × maxTypos + 1 cells whatever the word's length. The cells just outside the band
        // that the next cells read hold `far` (their true value is larger; only values ≤ maxTypos matter).
        const lo = Math.max(1, d - maxTypos);
        const hi = Math.min(m, d + maxTypos);
        rows[row] = d;
        rows[row + lo - 1] = lo === 1 ? d : far;
        if (hi < m) rows[row + hi + 1] = far;
        let best = d;
        for (let j = lo; j <= hi; j++) {
          const cost = word.charCodeAt(j - 1) === c ? 0 : 1;
          let v = Math.min(rows[up + j]! + 1, rows[row + j - 1]! + 1, rows[up + j - 1]! + cost);
          if (d > 1 && j > 1 && c === word.charCodeAt(j - 2) && term.charCodeAt(d - 2) === word.charCodeAt(j - 1)) {
            v = Math.min(v, rows[(d - 2) * width + j - 2]! + 1);
          }
          rows[row + j] = v;
          if (v < best) best = v;
        }
        if (work) {
          work.rows++;
          work.cells += hi - lo + 1;
        }
        if (best > maxTypos) {
          pruned = d;
          break;
        }
      }
      if (pruned > 0) {
        // Every term that shares this term's first `pruned` characters is out of reach: skip the run.
        i++;
        while (i < n && this.shared[i]! >= pruned) i++;
        valid = pruned - 1;
        continue;
      }
      if (term.length <= maxLen && Math.abs(term.length - m) <= maxTypos && term !== word) {
        const distance = rows[term.length * width + m]!;
        if (distance <= maxTypos) out.push({ id: this.ids[i]!, distance });
      }
      valid = depth;
      i++;
    }
    return out;
  }
}
