/**
 * A snapshot's keyword vocabulary in sorted order, for the two ways a shopper's word may
 * differ from the catalog's: a typo (bounded Damerau–Levenshtein distance, optimal string
 * alignment) and an unfinished last word (prefix). The typo search walks the sorted terms as
 * if they were a trie: the dynamic-programming rows of a shared prefix are reused from the
 * previous term, and a whole run of terms sharing a prefix is skipped as soon as that prefix
 * is already too far from the word.
 */
export interface VocabularyMatch {
  /** The term's id in the engine's TermDictionary. */
  id: number;
  /** 0 for a prefix match; otherwise the number of typos. */
  distance: number;
}

export class Vocabulary {
  private readonly terms: string[];
  private readonly ids: Int32Array;

  /** `entries`: [term, id] pairs, in any order. */
  constructor(entries: readonly (readonly [string, number])[]) {
    const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.terms = sorted.map((e) => e[0]);
    this.ids = Int32Array.from(sorted, (e) => e[1]);
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
   * `sameFirst`: only terms that start with the word's first character (far cheaper on a large vocabulary).
   */
  fuzzy(word: string, maxTypos: number, sameFirst = false): VocabularyMatch[] {
    const out: VocabularyMatch[] = [];
    if (maxTypos <= 0 || this.terms.length === 0) return out;
    const m = word.length;
    const maxLen = m + maxTypos;
    const width = m + 1;
    // rows[d] is the DP row after the first d characters of the current term.
    const rows = new Int32Array((maxLen + 1) * width);
    for (let j = 0; j <= m; j++) rows[j] = j;
    let previous = '';
    let i = sameFirst ? this.lowerBound(word.slice(0, 1)) : 0;
    const n = sameFirst ? this.lowerBound(word.slice(0, 1) + '\uffff', i) : this.terms.length;
    while (i < n) {
      const term = this.terms[i]!;
      let common = 0;
      const limit = Math.min(previous.length, term.length, maxLen);
      while (common < limit && previous.charCodeAt(common) === term.charCodeAt(common)) common++;
      let pruned = -1;
      const depth = Math.min(term.length, maxLen);
      for (let d = common + 1; d <= depth; d++) {
        const c = term.charCodeAt(d - 1);
        const row = d * width;
        const up = (d - 1) * width;
        rows[row] = d;
        let best = d;
        for (let j = 1; j <= m; j++) {
          const cost = word.charCodeAt(j - 1) === c ? 0 : 1;
          let v = Math.min(rows[up + j]! + 1, rows[row + j - 1]! + 1, rows[up + j - 1]! + cost);
          if (d > 1 && j > 1 && c === word.charCodeAt(j - 2) && term.charCodeAt(d - 2) === word.charCodeAt(j - 1)) {
            v = Math.min(v, rows[(d - 2) * width + j - 2]! + 1);
          }
          rows[row + j] = v;
          if (v < best) best = v;
        }
        if (best > maxTypos) {
          pruned = d;
          break;
        }
      }
      if (pruned > 0) {
        // Every term that shares this term's first `pruned` characters is out of reach: skip the run.
        const prefix = term.slice(0, pruned);
        i = this.lowerBound(prefix + '\uffff', i + 1);
        previous = prefix.slice(0, pruned - 1);
        continue;
      }
      if (term.length <= maxLen && term !== word) {
        const distance = rows[term.length * width + m]!;
        if (distance <= maxTypos) out.push({ id: this.ids[i]!, distance });
      }
      previous = term.length <= maxLen ? term : term.slice(0, maxLen);
      i++;
    }
    return out;
  }
}
