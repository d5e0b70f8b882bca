/**
 * How much of a query takes part in a search: its first MAX_QUERY_WORDS searched words (stop words
 * do not count; they are not searched), each read up to MAX_WORD_LENGTH characters. Words past the
 * cap are ignored, as if the query ended after its tenth searched word — not refused: a shopper's
 * or an agent's long query still gets its answer. Meilisearch reads the first 10 words of a query
 * for the same reason: the work of a search grows with its words (a typo search, a postings scan
 * and an embedding lookup each), and `q` may hold 500 characters — 83 words of five letters.
 *
 * The cut is made on the query as typed (its separators and spelling kept), so that the same text
 * goes to either engine and to the embedder; the embedded engine cuts again at MAX_QUERY_WORDS
 * (query-terms.ts) whatever text it is handed.
 */
import { MAX_WORD_LENGTH, STOP_WORDS, truncate, words } from '../text/analyzer.js';

/** Searched words of a query that take part (Meilisearch: 10). */
export const MAX_QUERY_WORDS = 10;

/**
 * How many of a query's words (the analyser's, stop words included) take part: up to and including
 * the MAX_QUERY_WORDS-th that is not a stop word; all of them when there are fewer.
 */
export function searchedLength(all: readonly string[]): number {
  let searched = 0;
  for (let i = 0; i < all.length; i++) if (!STOP_WORDS.has(all[i]!) && ++searched === MAX_QUERY_WORDS) return i + 1;
  return all.length;
}

/** A run of letters, digits and combining marks (an English possessive with it): one or more of the analyser's words. */
const RUN = /[\p{L}\p{N}\p{M}]+(?:['\u2019]s(?![\p{L}\p{N}]))?/gu;

export interface BoundOptions {
  /** Leave out the runs that are only stop words (for an engine that would count them against a limit of its own). */
  dropStopWords?: boolean;
}

/**
 * The part of `text` that is searched: cut after the run that holds its MAX_QUERY_WORDS-th searched
 * word, each run longer than MAX_WORD_LENGTH cut to it. The text is returned as it is when nothing
 * is cut. (A run the analyser splits — a letter and a mark it does not fold, `½` — may carry a few
 * words past the cap: the engine's own cut drops them.)
 */
export function boundQuery(text: string, options: BoundOptions = {}): string {
  let searched = 0;
  let out = '';
  let from = 0;
  let changed = false;
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    const start = match.index;
    if (searched >= MAX_QUERY_WORDS) {
      changed = true;
      break;
    }
    const kept = run.length > MAX_WORD_LENGTH ? truncate(run, MAX_WORD_LENGTH) : run;
    let counted = 0;
    for (const word of words(kept)) if (!STOP_WORDS.has(word)) counted++;
    searched += counted;
    if (options.dropStopWords && counted === 0) {
      changed = true;
      from = start + run.length;
      continue;
    }
    changed ||= kept !== run;
    out += (options.dropStopWords ? (out ? ' ' : '') : text.slice(from, start)) + kept;
    from = start + run.length;
  }
  if (!changed) return text;
  return options.dropStopWords ? out : out + (searched >= MAX_QUERY_WORDS ? '' : text.slice(from));
}
