/**
 * The default search engine: in this process, per merchant, hybrid BM25F + vector
 * similarity (see merchant-index.ts). Writes make the merchant's next snapshot from the one
 * before and swap it in; a search always sees one whole snapshot. A change of a few existing
 * products patches the snapshot before (`patched`: milliseconds at a million products); one that
 * adds or removes products builds it whole — its rows' analyses and vector codes copied, only the
 * changed documents analysed (snapshot-builder.ts), seconds at a million. A whole catalog
 * is streamed in (`load`), and a merchant's index can be taken as arrays and restored from them
 * (`state`, `restore`: a persisted snapshot, catalog/read-model/catalog-snapshots.ts).
 */
import { CatalogColumns } from '../catalog-columns.js';
import type { EngineLoad, FacetName, SearchDocument, SearchEngine, SearchFacets, SearchRequest, SearchResult } from '../search-engine.js';
import { nextTurn } from '../../kernel/concurrency/next-turn.js';
import { SerialQueues } from '../../kernel/concurrency/serial-queues.js';
import { AttributeValues } from './attribute-values.js';
import { analyzeDocument, renumbered } from './document-analysis.js';
import type { IndexState } from './index-state.js';
import { MerchantIndex, type SnapshotParts } from './merchant-index.js';
import type { RankingOptions } from './ranking.js';
import { cosineMatrix } from './cosine-matrix.js';
import { SnapshotBuilder } from './snapshot-builder.js';
import { TermDictionary } from './term-dictionary.js';
import { withRowsReplaced } from './forward-index.js';

export interface EmbeddedEngineOptions extends Partial<RankingOptions> {
  /** The embedder's dimensions: vectors of another length are ignored. */
  dimensions: number;
}

/**
 * Calibrated on bench/relevance (bench/relevance/calibrate.ts): band 0.10 keeps nDCG@10 and makes
 * the match set the most precise; feedback 2 (ranking only) lifts paraphrase nDCG@10 from 0.124 to 0.211.
 */
export const DEFAULT_RANKING: RankingOptions = { keywordWeight: 0.5, vectorFloor: 0.45, vectorBand: 0.1, feedback: 2 };

/** A change of more than this share of a merchant's products makes the whole snapshot again rather than patch it. */
const PATCH_SHARE = 0.1;

interface MerchantState {
  /** Each product's row in the snapshot. */
  rowOf: Map<string, number>;
  snapshot: MerchantIndex;
}

export class EmbeddedSearchEngine implements SearchEngine {
  readonly name = 'embedded';
  readonly persistent = false;
  private readonly merchants = new Map<string, MerchantState>();
  /** Each merchant's writes, one after another (each reads the snapshot the one before swapped in). */
  private readonly writes = new SerialQueues();
  private readonly ranking: RankingOptions;
  private readonly dictionary = new TermDictionary();
  private readonly attributeValues = new AttributeValues();
  private columnsOf: ((merchantId: string) => CatalogColumns | undefined) | undefined;
  /** Snapshots whose arrays `state` gave out (see patched). */
  private readonly exported = new WeakSet<MerchantIndex>();

  constructor(private readonly options: EmbeddedEngineOptions) {
    const { keywordWeight, vectorFloor, vectorBand, feedback } = options;
    this.ranking = { ...DEFAULT_RANKING, ...withoutUndefined({ keywordWeight, vectorFloor, vectorBand, feedback }) };
  }

  shareColumns(columnsOf: (merchantId: string) => CatalogColumns | undefined): void {
    this.columnsOf = columnsOf;
  }

  private builder(before: MerchantState | undefined, ownColumns: boolean): SnapshotBuilder {
    return new SnapshotBuilder(this.options.dimensions, this.dictionary, this.attributeValues, before?.snapshot.parts, { ownColumns });
  }

  /**
   * Swaps in the snapshot `builder` makes: its parts, then the index over them — seconds each at a
   * million products, so other work (requests, the database pool's connections) runs between them;
   * the snapshot before answers until then.
   */
  private async swapIn(merchantId: string, builder: SnapshotBuilder, columns?: CatalogColumns): Promise<void> {
    if (builder.size === 0) {
      this.merchants.delete(merchantId);
      return;
    }
    const parts = builder.build(columns);
    await nextTurn();
    this.merchants.set(merchantId, this.built(builder, parts));
  }

  private built(builder: SnapshotBuilder, parts: SnapshotParts): MerchantState {
    const rowOf = new Map<string, number>();
    builder.ids.forEach((id, row) => rowOf.set(id, row));
    return { rowOf, snapshot: new MerchantIndex(parts, this.dictionary, this.attributeValues) };
  }

  /**
   * The merchant's snapshot after a change: `fresh` documents added or replaced, `gone` ids removed,
   * every other row kept. In the order of the catalog read model's columns when they hold exactly
   * these products (then shared); else the rows kept in their order, then the new ones, and columns
   * made here of the kept rows' fields and the fresh documents'.
   */
  private async change(merchantId: string, fresh: ReadonlyMap<string, SearchDocument>, gone: ReadonlySet<string>): Promise<void> {
    const before = this.merchants.get(merchantId);
    if (!before && fresh.size === 0) return;
    if (before && gone.size === 0 && fresh.size <= before.snapshot.size * PATCH_SHARE && [...fresh.keys()].every((id) => before.rowOf.has(id))) {
      const patched = this.patched(merchantId, before, fresh);
      if (patched) {
        this.merchants.set(merchantId, patched);
        return;
      }
    }
    const ids: string[] = [];
    for (const id of before?.snapshot.columns.ids ?? []) if (!gone.has(id)) ids.push(id);
    for (const id of fresh.keys()) if (!before?.rowOf.has(id)) ids.push(id);
    const shared = this.sharedColumns(merchantId, ids);
    const builder = this.builder(before, !shared);
    for (const id of shared?.ids ?? ids) {
      const doc = fresh.get(id);
      if (doc) builder.add(doc);
      else builder.keep(before!.rowOf.get(id)!);
    }
    await this.swapIn(merchantId, builder, shared);
  }

  /**
   * Products changed, none added or removed: each keeps its row, and the snapshot is `before`'s
   * with those rows analysed again — their analyses appended to the forward index, their vectors
   * written over the old, the postings and attribute words patched (MerchantIndex.patched). Undefined when
   * the catalog's columns are no longer in `before`'s row order (then the whole snapshot is made).
   */
  private patched(merchantId: string, before: MerchantState, fresh: ReadonlyMap<string, SearchDocument>): MerchantState | undefined {
    const { parts } = before.snapshot;
    const ids = parts.columns.ids;
    const shared = this.columnsOf?.(merchantId);
    let columns: CatalogColumns;
    if (shared) {
      if (shared.ids !== ids && (shared.size !== ids.length || shared.ids.some((id, row) => id !== ids[row]))) return undefined;
      columns = shared;
    } else columns = new CatalogColumns(ids.map((id, row) => fresh.get(id) ?? parts.columns.fields(row)));
    const analyses = new Map<number, number[]>();
    for (const [id, doc] of fresh) analyses.set(before.rowOf.get(id)!, analyzeDocument(doc, this.dictionary, this.attributeValues));
    const forward = withRowsReplaced(parts.forward, analyses);
    // The vectors are taken over (a search sees only the snapshot swapped in, whole), unless `state` gave them out
    // (a snapshot being written reads them later): then they are copied.
    let { matrix, hasVector, dims } = parts.vectors;
    if (this.exported.has(before.snapshot)) {
      const copy = cosineMatrix(ids.length, dims);
      copy.loadRows(matrix.rows().codes, matrix.rows().scales);
      [matrix, hasVector] = [copy, hasVector.slice()];
    }
    for (const [id, doc] of fresh) {
      const row = before.rowOf.get(id)!;
      const vector = doc.vector && doc.vector.length === dims ? doc.vector : undefined;
      if (vector) matrix.setRow(row, vector);
      else matrix.clearRow(row);
      hasVector[row] = vector ? 1 : 0;
    }
    const rows = [...analyses.keys()].sort((a, b) => a - b);
    const next = { forward, vectors: { matrix, hasVector, dims }, columns };
    return { rowOf: before.rowOf, snapshot: MerchantIndex.patched(before.snapshot, next, rows, this.dictionary, this.attributeValues) };
  }

  /** The catalog's columns of the merchant when they hold exactly these products (row i: the product with ids[i]). */
  private sharedColumns(merchantId: string, ids: readonly string[]): CatalogColumns | undefined {
    const columns = this.columnsOf?.(merchantId);
    if (!columns || columns.size !== ids.length) return undefined;
    const held = new Set(ids);
    return columns.ids.every((id) => held.has(id)) ? columns : undefined;
  }

  async index(documents: readonly SearchDocument[]): Promise<void> {
    const touched = new Map<string, Map<string, SearchDocument>>();
    for (const doc of documents) {
      let fresh = touched.get(doc.merchantId);
      if (!fresh) touched.set(doc.merchantId, (fresh = new Map()));
      fresh.set(doc.id, doc);
    }
    for (const [merchantId, fresh] of touched) await this.writes.run(merchantId, () => this.change(merchantId, fresh, new Set()));
  }

  async remove(merchantId: string, ids: readonly string[]): Promise<void> {
    await this.writes.run(merchantId, () => this.change(merchantId, new Map(), new Set(ids)));
  }

  async replaceMerchant(merchantId: string, documents: readonly SearchDocument[]): Promise<void> {
    const load = this.load(merchantId, { sharedColumns: false });
    load.add(documents);
    await load.finish();
  }

  /**
   * A merchant's whole catalog, streamed in batch by batch (nothing of a document is kept but its
   * analysis and vector); the snapshot before answers until `finish`. `sharedColumns`: the caller
   * gives the catalog's columns at the end (the catalog read model), so none are made here.
   */
  load(merchantId: string, { sharedColumns }: { sharedColumns: boolean }): EngineLoad {
    const builder = this.builder(undefined, !sharedColumns);
    const seen = new Set<string>();
    return {
      add: (documents) => {
        for (const doc of documents) {
          if (seen.has(doc.id)) throw new Error(`product ${doc.id} loaded twice`);
          seen.add(doc.id);
          builder.add(doc);
        }
      },
      finish: (columns) => this.writes.run(merchantId, () => this.swapIn(merchantId, builder, columns)),
    };
  }

  /** The merchant's index as arrays (undefined: none held); its vectors are views, never written after. */
  state(merchantId: string): IndexState | undefined {
    const snapshot = this.merchants.get(merchantId)?.snapshot;
    if (!snapshot) return undefined;
    this.exported.add(snapshot);
    const { forward, vectors } = snapshot.parts;
    const local = new Map<number, number>();
    const terms: string[] = [];
    const surfaces: string[] = [];
    const attributeLocal = new Map<number, number>();
    const attributes: { stem: string; name: string; value: string }[] = [];
    const mapped = renumbered(
      forward,
      (id) => {
        let number = local.get(id);
        if (number === undefined) {
          local.set(id, (number = terms.length));
          terms.push(this.dictionary.term(id));
          surfaces.push(this.dictionary.surface(id));
        }
        return number;
      },
      (global) => {
        let number = attributeLocal.get(global);
        if (number === undefined) {
          attributeLocal.set(global, (number = attributes.length));
          const { stem, name, value } = this.attributeValues.value(global);
          attributes.push({ stem, name, value });
        }
        return number;
      },
    );
    return { forward: mapped, terms, surfaces, attributes, ...vectors.matrix.rows(), hasVector: vectors.hasVector, dims: vectors.dims };
  }

  /** Holds the merchant's index as `state` has it, on the catalog's `columns` (of the same rows); `state`'s arrays become the index's own. */
  restore(merchantId: string, state: IndexState, columns: CatalogColumns): void {
    const { dims } = state;
    if (dims !== this.options.dimensions) throw new Error(`the index state has vectors of ${dims} dimensions, the embedder ${this.options.dimensions}`);
    if (columns.size !== state.forward.size) throw new Error('the index state and the columns are not of the same rows');
    const termIds = state.terms.map((term, i) => this.dictionary.id(term, state.surfaces[i]));
    const attributeNumbers = state.attributes.map(({ stem, name, value }) => this.attributeValues.number(stem, name, value));
    const forward = renumbered(state.forward, (i) => termIds[i]!, (i) => attributeNumbers[i]!, { inPlace: true });
    const n = forward.size;
    const matrix = cosineMatrix(n, dims);
    matrix.loadRows(state.codes, state.scales);
    const parts = { forward, vectors: { matrix, hasVector: state.hasVector, dims }, columns };
    const rowOf = new Map<string, number>();
    columns.ids.forEach((id, row) => rowOf.set(id, row));
    this.merchants.set(merchantId, { rowOf, snapshot: new MerchantIndex(parts, this.dictionary, this.attributeValues) });
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    const snapshot = this.merchants.get(request.merchantId)?.snapshot;
    if (!snapshot) return { hits: [], total: 0, mode: request.vector ? 'hybrid' : 'keyword', ...(request.facets?.length ? { facets: emptyFacets(request.facets) } : {}) };
    const { text, vector, filters, offset, limit, pricePreference, facets } = request;
    return snapshot.search({ text, vector, filters, offset, limit, pricePreference, facets }, this.ranking);
  }

  spell(merchantId: string, text: string): string {
    return this.merchants.get(merchantId)?.snapshot.spell(text) ?? text;
  }

  snapshot(merchantId: string): MerchantIndex | undefined {
    return this.merchants.get(merchantId)?.snapshot;
  }

  /** Products indexed for a merchant. */
  count(merchantId: string): number {
    return this.merchants.get(merchantId)?.snapshot.size ?? 0;
  }

  async close(): Promise<void> {
    this.merchants.clear();
  }
}

function emptyFacets(names: readonly FacetName[]): SearchFacets {
  return {
    ...(names.includes('category') ? { category: [] } : {}),
    ...(names.includes('brand') ? { brand: [] } : {}),
    ...(names.includes('price') ? { price: { min: 0, max: 0, buckets: [] } } : {}),
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
