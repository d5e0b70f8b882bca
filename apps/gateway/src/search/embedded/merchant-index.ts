/**
 * One merchant's immutable search snapshot, a thin whole of its parts: the filter and facet
 * columns with the title order (../catalog-columns.ts), BM25F postings (postings.ts), the
 * vector matrix (cosine-matrix.ts), query-word matching (query-matching.ts), spelling
 * (spelling.ts), ranking and fusion (ranking.ts) and feedback (feedback.ts). Searching is
 * synchronous and allocation-light; a change builds a new snapshot (see embedded-engine.ts).
 */
import { CatalogColumns } from '../catalog-columns.js';
import type { SearchResult } from '../search-engine.js';
import { attributeWords } from './attribute-values.js';
import { cosineMatrix } from './cosine-matrix.js';
import type { AnalyzedDocument } from './document-analysis.js';
import { storeDocumentVector } from './document-vector.js';
import { Feedback } from './feedback.js';
import { Postings } from './postings.js';
import { QueryMatcher } from './query-matching.js';
import { Ranker, type IndexQuery, type RankingOptions } from './ranking.js';
import { Speller } from './spelling.js';
import type { TermDictionary } from './term-dictionary.js';

export class MerchantIndex {
  readonly size: number;
  /** The filter and facet columns and title order: the catalog read model's own when it shares them. */
  readonly columns: CatalogColumns;
  private readonly matcher: QueryMatcher;
  private readonly speller: Speller;
  private readonly ranker: Ranker;

  /** `columns`: the catalog's columns of exactly these documents, row i for documents[i] (made here without them). */
  constructor(documents: readonly AnalyzedDocument[], dims: number, dictionary: TermDictionary, columns?: CatalogColumns) {
    const n = documents.length;
    this.size = n;
    const matrix = cosineMatrix(n, dims);
    const hasVector = new Uint8Array(n);
    // The engine's documents keep their vector as this matrix's row, not a second copy (document-vector.ts).
    documents.forEach(({ doc }, i) => {
      if (storeDocumentVector(matrix, i, doc)) hasVector[i] = 1;
    });
    this.columns = columns ??= new CatalogColumns(
      documents.map((d) => d.doc),
      (i) => documents[i]!.wideTitle,
    );
    const postings = new Postings(documents, dictionary.size);
    const attributes = attributeWords(documents);
    this.matcher = new QueryMatcher(postings, dictionary);
    this.speller = new Speller(n, postings, dictionary, attributes);
    this.ranker = new Ranker({ columns, postings, matrix, feedback: new Feedback(matrix, hasVector, n, dims), dims, attributeWords: attributes });
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
