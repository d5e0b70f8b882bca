/**
 * The query as the catalog spells it (SearchEngine.spell): each word the catalog lacks becomes
 * the catalog's closest term, and an unfinished or misspelt word with several candidates the one
 * found most often beside the query's other words. What the query's embedding is made of.
 */
import type { AttributeWord } from './attribute-values.js';
import type { Postings } from './postings.js';
import type { MatchKind, QueryWord } from './query-terms.js';
import type { TermDictionary } from './term-dictionary.js';

export class Speller {
  constructor(
    size: number,
    private readonly postings: Postings,
    private readonly dictionary: TermDictionary,
    private readonly attributeWords: ReadonlyMap<string, AttributeWord>,
    /** Documents holding one of the other words (1), for likeliestCompletion; all 0 between calls (another speller's of as many rows, see Ranker). */
    readonly beside: Uint8Array = new Uint8Array(size),
  ) {}

  spell(all: readonly QueryWord[]): string {
    // Attribute words (a colour the catalog has) boost by themselves; beside other words they stay out of the meaning,
    // so that `white wardrobe` is not close to every white thing.
    const isAttribute = (w: QueryWord) => w.matches.length > 0 && this.attributeWords.has(w.stem);
    const words = all.some((w) => w.matches.length > 0 && !isAttribute(w)) ? all.filter((w) => !isAttribute(w)) : all;
    return words
      .map((word, index) => {
        const first = word.matches[0];
        if (first === undefined || first.kind === 'exact') return word.word;
        const others = words.filter((w, i) => i !== index);
        return this.dictionary.surface(others.length === 0 ? first.term : this.likeliestCompletion(word, first.kind, others));
      })
      .join(' ');
  }

  /**
   * Of a word's best matches (of one kind: 1 typo, 2 typos or prefix), the one found most often
   * beside the query's other words (`kitchen trol`: `trolley`; `corer sofa`: `corner`).
   */
  private likeliestCompletion(word: QueryWord, kind: MatchKind, others: readonly QueryWord[]): number {
    const beside = this.beside;
    const marked: number[] = [];
    for (const other of others) {
      for (const match of other.matches) {
        if (match.kind !== 'exact') continue;
        for (const d of this.postings.of(match.term).docs) {
          if (beside[d] === 0) marked.push(d);
          beside[d] = 1;
        }
      }
    }
    let best = word.matches[0]!.term;
    let bestCount = -1;
    for (const match of word.matches) {
      if (match.kind !== kind) continue;
      let count = 0;
      for (const d of this.postings.of(match.term).docs) count += beside[d]!;
      if (count > bestCount) [best, bestCount] = [match.term, count];
    }
    for (const d of marked) beside[d] = 0;
    return best;
  }
}
