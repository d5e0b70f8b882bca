/**
 * How a query's words meet the catalog's terms (Meilisearch's rules as the reference):
 * - a word the catalog has is taken as typed;
 * - otherwise typos are forgiven: none under 5 letters, 1 from 5 to 8, 2 from 9; never in a
 *   word with a digit (numbers, sizes and model codes such as `s7`, `32gb`, `x100`);
 * - the last word is also read as the start of a longer term (search as you type), unless it is
 *   a plain number.
 * A match costs: exact 1, prefix 0.25, one typo 0.3, two typos 0.12 (times the term's own
 * BM25F weight), so whole words rank above prefixes and exact above 1-typo above 2-typo.
 */
import { stem, STOP_WORDS, words } from '../text/analyzer.js';
import type { Vocabulary } from './vocabulary.js';

export type MatchKind = 'exact' | 'prefix' | 'typo1' | 'typo2';

export const MATCH_FACTOR: Record<MatchKind, number> = { exact: 1, prefix: 0.25, typo1: 0.3, typo2: 0.12 };
/** Prefix expansions kept per word (the most frequent terms). */
const MAX_PREFIX_TERMS = 40;
/** Typo expansions kept per word (the most frequent terms). */
const MAX_TYPO_TERMS = 20;

export interface TermMatch {
  term: number;
  kind: MatchKind;
}

export interface QueryWord {
  word: string;
  stem: string;
  matches: TermMatch[];
}

/** What the caller knows of its catalog. */
export interface TermLookup {
  /** The id of a term present in the catalog, else undefined. */
  find(term: string): number | undefined;
  /** Documents holding a term. */
  df(term: number): number;
  vocabulary(): Vocabulary;
}

export function typoBudget(word: string): number {
  if (/\p{N}/u.test(word)) return 0;
  const length = [...word].length;
  return length < 5 ? 0 : length <= 8 ? 1 : 2;
}

function mostFrequent(ids: number[], lookup: TermLookup, keep: number): number[] {
  if (ids.length <= keep) return ids;
  return ids.sort((a, b) => lookup.df(b) - lookup.df(a)).slice(0, keep);
}

/** The query's words (stop words out, one entry per stem) with the catalog terms each matches. */
export function queryWords(text: string, lookup: TermLookup, prefixLast = true): QueryWord[] {
  const all = words(text).filter((w) => !STOP_WORDS.has(w));
  const out: QueryWord[] = [];
  const seen = new Set<string>();
  all.forEach((word, index) => {
    const s = stem(word);
    const last = index === all.length - 1;
    if (seen.has(s) && !last) return;
    seen.add(s);
    const matches: TermMatch[] = [];
    const exact = lookup.find(s);
    if (exact !== undefined) matches.push({ term: exact, kind: 'exact' });
    const budget = typoBudget(word);
    if (exact === undefined && budget > 0) {
      let found = lookup.vocabulary().fuzzy(s, budget);
      if (found.length === 0 && s !== word) found = lookup.vocabulary().fuzzy(word, budget);
      for (const distance of [1, 2]) {
        const ids = mostFrequent(found.filter((f) => f.distance === distance).map((f) => f.id), lookup, MAX_TYPO_TERMS);
        for (const id of ids) matches.push({ term: id, kind: distance === 1 ? 'typo1' : 'typo2' });
      }
    }
    if (last && prefixLast && /\p{L}/u.test(word)) {
      const vocabulary = lookup.vocabulary();
      const taken = new Set(matches.map((m) => m.term));
      const candidates = vocabulary.withPrefix(word, 2_000).filter((id) => !taken.has(id));
      for (const id of mostFrequent(candidates, lookup, MAX_PREFIX_TERMS)) matches.push({ term: id, kind: 'prefix' });
    }
    const previous = out.find((w) => w.stem === s);
    if (previous) previous.matches = matches.length > previous.matches.length ? matches : previous.matches;
    else out.push({ word, stem: s, matches });
  });
  return out;
}
