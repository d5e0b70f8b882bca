/** Graded relevance metrics over the first k results. */
export type Judgments = Record<string, number>;

/** nDCG@k with gain 2^grade − 1 and the ideal ranking built from every judged product. */
export function ndcg(ranked: readonly string[], judgments: Judgments, k = 10): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (2 ** (judgments[id] ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = Object.values(judgments)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + (2 ** grade - 1) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Reciprocal rank of the first result graded 1 or 2 (0 when none is in the first k). */
export function reciprocalRank(ranked: readonly string[], judgments: Judgments, k = 10): number {
  const index = ranked.slice(0, k).findIndex((id) => (judgments[id] ?? 0) > 0);
  return index === -1 ? 0 : 1 / (index + 1);
}

/**
 * Capped recall@k (BEIR's R_cap@k): relevant (grade ≥ 1) results in the first k, divided by
 * min(k, number of relevant products) — so a query with 200 relevant products can still reach 1.
 */
export function cappedRecall(ranked: readonly string[], judgments: Judgments, k = 10): number {
  const relevant = Object.values(judgments).filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  const found = ranked.slice(0, k).filter((id) => (judgments[id] ?? 0) > 0).length;
  return found / Math.min(k, relevant);
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
