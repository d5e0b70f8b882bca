/**
 * One query's keyword scores: each product's sum over the query's words of its best match (a
 * posting's weight times the match's factor) and the weight of the required words it holds. Kept in
 * scratch arrays a ranker owns (one slot a product), all zero between queries, with the products
 * touched listed so that clearing costs what scoring did. Typed arrays only: at a million products
 * a query walks hundreds of thousands of postings, and pushing to JavaScript arrays cost most of it.
 */

/** One of a word's matches: a term's postings and what a posting's weight is multiplied by. */
export interface ScoredList {
  docs: Int32Array;
  weights: Float32Array;
  factor: number;
}

export class KeywordScores {
  readonly scores: Float32Array;
  readonly covered: Float32Array;
  /** The products with a score, in `touched[0, touchedCount)`. */
  readonly touched: Int32Array;
  touchedCount = 0;
  private readonly best: Float32Array;
  private readonly group: Int32Array;

  constructor(size: number) {
    this.scores = new Float32Array(size);
    this.covered = new Float32Array(size);
    this.touched = new Int32Array(size);
    this.best = new Float32Array(size);
    this.group = new Int32Array(size);
  }

  /** Adds a word: each product scores its best match among `lists`, and holds `covers` of the required weight. */
  addWord(lists: readonly ScoredList[], covers: number): void {
    if (lists.length === 1) this.addList(lists[0]!, covers);
    else this.addBestOf(lists, covers);
  }

  private addList({ docs, weights, factor }: ScoredList, covers: number): void {
    const { scores, covered, touched } = this;
    let t = this.touchedCount;
    for (let j = 0; j < docs.length; j++) {
      const d = docs[j]!;
      const s = scores[d]!;
      if (s === 0) touched[t++] = d;
      scores[d] = s + factor * weights[j]!;
      covered[d]! += covers;
    }
    this.touchedCount = t;
  }

  private addBestOf(lists: readonly ScoredList[], covers: number): void {
    const { scores, covered, touched, best, group } = this;
    let g = 0;
    for (const { docs, weights, factor } of lists) {
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        const value = factor * weights[j]!;
        const b = best[d]!;
        if (b === 0) group[g++] = d;
        if (value > b) best[d] = value;
      }
    }
    let t = this.touchedCount;
    for (let k = 0; k < g; k++) {
      const d = group[k]!;
      const s = scores[d]!;
      if (s === 0) touched[t++] = d;
      scores[d] = s + best[d]!;
      covered[d]! += covers;
      best[d] = 0;
    }
    this.touchedCount = t;
  }

  /** Back to zero (every product touched since the last clear). */
  clear(): void {
    const { scores, covered, touched } = this;
    for (let k = 0; k < this.touchedCount; k++) {
      const d = touched[k]!;
      scores[d] = 0;
      covered[d] = 0;
    }
    this.touchedCount = 0;
  }
}
