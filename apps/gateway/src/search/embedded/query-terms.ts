/**
 * How a query's words meet the catalog's terms (Meilisearch's rules as the reference):
 * - a word the catalog has is taken as typed;
 * - otherwise typos are forgiven: none under 5 letters, 1 from 5 to 8, 2 from 9; never in a
 *   word with a digit (numbers, sizes and model codes such as `s7`, `32gb`, `x100`), never on
 *   the first letter (Meilisearch counts that as two typos);
 * - the last word is also read as the start of a longer term (search as you type), unless it is
 *   a plain number.
 * Whole words rank above prefixes, exact above 1-typo above 2-typo matches (MATCH_FACTOR).
 *
 * The work a query may ask for is bounded: its first MAX_QUERY_WORDS searched words take part
 * (query/bound-query.ts: the query is read as if it ended there), each word matches at most
 * MAX_TYPO_TERMS terms per typo distance and the last at most MAX_PREFIX_TERMS longer ones; typos
 * are searched for in at most MAX_TYPO_WORDS words of the query (each search a walk over the
 * vocabulary, two for a word whose stem differs) and the query matches at most MAX_QUERY_TYPO_TERMS
 * typo terms in all (each a postings list to scan).
 */
import { stem, STOP_WORDS, words } from '../text/analyzer.js';
import { searchedLength } from '../query/bound-query.js';
import type { Vocabulary, VocabularyMatch } from './vocabulary.js';

export type MatchKind = 'exact' | 'prefix' | 'typo1' | 'typo2';

/** A match's weight is its word's idf × the term's saturated BM25F frequency × this factor. */
export const MATCH_FACTOR: Record<MatchKind, number> = { exact: 1, prefix: 0.75, typo1: 0.85, typo2: 0.5 };
/** Prefix expansions kept per word (the most frequent terms). */
export const MAX_PREFIX_TERMS = 40;
/** …and when the word is itself one the catalog has. */
export const MAX_PREFIX_TERMS_OF_WORD = 10;
/** Typo expansions kept per word and distance (the closest, then the most frequent terms; Meilisearch: 150 and 50). */
export const MAX_TYPO_TERMS = 20;
/**
 * Typo expansions kept for the whole query, given to its words in order: three words' worth (a
 * query seldom has more than one or two misspelt words; ten that each match 40 terms would scan 400
 * postings lists). Prefix expansions are the last word's alone and not counted here.
 */
export const MAX_QUERY_TYPO_TERMS = 60;
/**
 * Words of a query searched for typos: the first four the catalog lacks (a shopper's query seldom
 * has more than one or two misspelt words; the rest are taken as typed). The local embedder reads
 * a query's words with typos forgiven in as many (local-embedder.ts).
 */
export const MAX_TYPO_WORDS = 4;

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
  const all = words(text);
  // Words past the MAX_QUERY_WORDS-th searched one are ignored: the query is read as if it ended there.
  all.length = searchedLength(all);
  // Stop words are dropped, except a last word that may be unfinished (`she` of `shelf`).
  const kept = all.filter((w, i) => !STOP_WORDS.has(w) || (prefixLast && i === all.length - 1 && /\p{L}/u.test(w)));
  const out: QueryWord[] = [];
  let typoTerms = MAX_QUERY_TYPO_TERMS;
  let typoWords = MAX_TYPO_WORDS;
  kept.forEach((word, index) => {
    const s = stem(word);
    const last = index === kept.length - 1;
    const stop = STOP_WORDS.has(word);
    const matches: TermMatch[] = [];
    const exact = stop ? undefined : lookup.find(s);
    if (exact !== undefined) matches.push({ term: exact, kind: 'exact' });
    const budget = stop ? 0 : typoBudget(word);
    if (exact === undefined && budget > 0 && typoTerms > 0 && typoWords-- > 0) {
      // Against the catalog's stems and its whole words (`confeeence` is 1 typo from `conference`, far from its stem `confer`).
      // Ranked by distance, then whole-word matches first (more telling than stems), then by frequency.
      const nearest = new Map<number, { distance: number; whole: number }>();
      const note = (found: VocabularyMatch[], whole: number) => {
        for (const { id, distance } of found) {
          const seen = nearest.get(id);
          if (!seen || distance < seen.distance || (distance === seen.distance && whole > seen.whole)) nearest.set(id, { distance, whole });
        }
      };
      // Never on the first letter (Meilisearch counts a typo there as two; it also keeps the walk short).
      note(lookup.vocabulary().fuzzy(s, budget, true), 0);
      if (s !== word) note(lookup.vocabulary().fuzzy(word, budget, true), 1);
      const ranked = [...nearest].sort(([a, x], [b, y]) => x.distance - y.distance || y.whole - x.whole || lookup.df(b) - lookup.df(a));
      for (const distance of [1, 2]) {
        const ids = ranked.filter(([, m]) => m.distance === distance).slice(0, Math.min(MAX_TYPO_TERMS, typoTerms));
        for (const [id] of ids) matches.push({ term: id, kind: distance === 1 ? 'typo1' : 'typo2' });
        typoTerms -= ids.length;
      }
    }
    if (last && prefixLast && /\p{L}/u.test(word)) {
      const taken = new Set(matches.map((m) => m.term));
      const candidates = [...new Set(lookup.vocabulary().withPrefix(word, 2_000))].filter((id) => !taken.has(id));
      // A finished word (one the catalog has) keeps only its few likeliest continuations.
      const keep = exact === undefined ? MAX_PREFIX_TERMS : MAX_PREFIX_TERMS_OF_WORD;
      for (const id of mostFrequent(candidates, lookup, keep)) matches.push({ term: id, kind: 'prefix' });
    }
    const previous = out.find((w) => w.stem === s);
    if (previous) {
      if (matches.length > previous.matches.length) previous.matches = matches;
    } else if (!stop || matches.length > 0) out.push({ word, stem: s, matches });
  });
  return out;
}
