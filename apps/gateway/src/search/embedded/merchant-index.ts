/**
 * One merchant's immutable search snapshot, a thin whole of its parts: the filter and facet
 * columns with the title order (../catalog-columns.ts), BM25F postings (postings.ts), the
 * vector matrix (cosine-matrix.ts), query-word matching (query-matching.ts), spelling
 * (spelling.ts), ranking and fusion (ranking.ts) and feedback (feedback.ts). Searching is
 * synchronous and allocation-light; a change builds a new snapshot (see embedded-engine.ts).
 */
import type { CatalogColumns } from '../catalog-columns.js';
import type { SearchResult } from '../search-engine.js';
import { attributeWords, patchedAttributeWords, type AttributeValues, type AttributeWord } from './attribute-values.js';
import type { CosineMatrix } from './cosine-matrix.js';
import { attributeNumbers } from './document-analysis.js';
import { Feedback } from './feedback.js';
import type { ForwardIndex } from './forward-index.js';
import { Postings } from './postings.js';
import { QueryMatcher } from './query-matching.js';
import { Ranker, type IndexQuery, type RankerScratch, type RankingOptions } from './ranking.js';
import { Speller } from './spelling.js';
import type { TermDictionary } from './term-dictionary.js';
import type { Vocabulary } from './vocabulary.js';

/** The products' vectors: row d of the matrix is product d's, when hasVector[d] is 1 (zeros otherwise). */
export interface SnapshotVectors {
  matrix: CosineMatrix;
  hasVector: Uint8Array;
  dims: number;
}

/** What a snapshot is made of (the rest is derived from them): the documents' analyses, vectors and columns. */
export interface SnapshotParts {
  forward: ForwardIndex;
  vectors: SnapshotVectors;
  /** The filter and facet columns and title order: the catalog read model's own when it shares them (see EmbeddedSearchEngine). */
  columns: CatalogColumns;
}

/** What a snapshot makes of its parts (see MerchantIndex.patched). */
interface Derived {
  postings: Postings;
  attributes: Map<string, AttributeWord>;
  vocabulary?: Vocabulary | undefined;
  scratch?: RankerScratch;
  beside?: Uint8Array;
}

export class MerchantIndex {
  readonly size: number;
  readonly parts: SnapshotParts;
  readonly columns: CatalogColumns;
  private readonly matcher: QueryMatcher;
  private readonly speller: Speller;
  private readonly ranker: Ranker;
  /** What is made of the parts and a patched snapshot starts from. */
  private readonly derived: Pick<Derived, 'postings' | 'attributes'>;

  /** Row i of each part is one product. */
  constructor(parts: SnapshotParts, dictionary: TermDictionary, attributeValues: AttributeValues, derived?: Derived) {
    const { forward, vectors, columns } = parts;
    const n = forward.size;
    this.size = n;
    this.parts = parts;
    this.columns = columns;
    const postings = derived?.postings ?? Postings.build(forward, dictionary.size);
    const attributes = derived?.attributes ?? attributeWords(n, (i) => attributeNumbers(forward, i), attributeValues);
    this.matcher = new QueryMatcher(postings, dictionary, derived?.vocabulary);
    this.speller = new Speller(n, postings, dictionary, attributes, derived?.beside);
    const { matrix, dims } = vectors;
    this.derived = { postings, attributes };
    this.ranker = new Ranker({ columns, postings, matrix, feedback: new Feedback(matrix, n, dims), dims, attributeWords: attributes }, derived?.scratch);
  }

  /**
   * The snapshot of `parts`, which are `before`'s with the rows `rows` (ascending) changed and no
   * row added or removed: its postings and attribute words patched from `before`'s (postings.ts),
   * its vocabulary `before`'s when the catalog's terms stayed the same. Milliseconds where a
   * whole build takes seconds at a million products.
   */
  static patched(before: MerchantIndex, parts: SnapshotParts, rows: readonly number[], dictionary: TermDictionary, attributeValues: AttributeValues): MerchantIndex {
    const { forward } = parts;
    const postings = Postings.patched(before.derived.postings, before.parts.forward, forward, rows, dictionary.size);
    const attributes = patchedAttributeWords(before.derived.attributes, rows, (i) => attributeNumbers(before.parts.forward, i), (i) => attributeNumbers(forward, i), attributeValues);
    const vocabulary = postings.sameTerms ? before.matcher.vocabularyBuilt : undefined;
    // The scratch arrays of `before` (replaced by this snapshot: it ranks no more).
    return new MerchantIndex(parts, dictionary, attributeValues, { postings, attributes, vocabulary, scratch: before.ranker.scratch, beside: before.speller.beside });
  }

  /** See SearchEngine.spell: each word the catalog lacks becomes the catalog's closest term. */
  spell(text: string): string {
    return this.speller.spell(this.matcher.words(text));
  }

  /** The query's answer (remembered, if at all, by the caller: see CatalogSearch). */
  search(query: IndexQuery, options: RankingOptions): SearchResult {
    return this.ranker.rank(query, this.matcher.words(query.text), options);
  }
}
