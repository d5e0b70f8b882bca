/**
 * A snapshot's side of query-word matching (query-terms.ts holds the rules): the catalog's terms
 * as a lookup, its vocabulary for typos and prefixes (built on the first query that needs it), and
 * the matches of recent query texts (a snapshot never changes, so neither do they).
 */
import { LRUCache } from 'lru-cache';
import type { Postings } from './postings.js';
import { queryWords, type QueryWord, type TermLookup } from './query-terms.js';
import type { TermDictionary } from './term-dictionary.js';
import { Vocabulary } from './vocabulary.js';

/** Query texts whose matches are remembered per snapshot. */
const REMEMBERED_TEXTS = 1_000;

export class QueryMatcher {
  private readonly remembered = new LRUCache<string, QueryWord[]>({ max: REMEMBERED_TEXTS });
  constructor(
    private readonly postings: Postings,
    private readonly dictionary: TermDictionary,
    /** The vocabulary, when known already (that of postings of the very same terms); else built on the first query that needs it. */
    private vocabulary?: Vocabulary,
  ) {}

  /** The vocabulary, if a query has needed it yet. */
  get vocabularyBuilt(): Vocabulary | undefined {
    return this.vocabulary;
  }

  /** The query's words with the catalog terms they match (typos forgiven, last word as a prefix). */
  words(text: string): QueryWord[] {
    const key = text.toLowerCase();
    let words = this.remembered.get(key);
    if (words === undefined) this.remembered.set(key, (words = queryWords(text, this.lookup)));
    return words;
  }

  private readonly lookup: TermLookup = {
    find: (term) => {
      const id = this.dictionary.find(term);
      return id !== undefined && this.postings.has(id) ? id : undefined;
    },
    df: (term) => this.postings.df(term),
    vocabulary: () => (this.vocabulary ??= this.buildVocabulary()),
  };

  /** The catalog's terms and the words they were first seen as, each naming its term. */
  private buildVocabulary(): Vocabulary {
    const entries: (readonly [string, number])[] = [];
    for (const id of this.postings.terms()) {
      const term = this.dictionary.term(id);
      const surface = this.dictionary.surface(id);
      entries.push([term, id]);
      if (surface !== term) entries.push([surface, id]);
    }
    return new Vocabulary(entries);
  }
}
