/**
 * Assembles a snapshot's parts (merchant-index.ts) row by row: a fresh document is analysed
 * (document-analysis.ts), a row kept from the snapshot before is copied — its analysis and its
 * vector's codes as they are (cosine-matrix.ts), nothing analysed, embedded or quantized again. Rows are streamed in: a catalog is
 * loaded batch by batch without its documents held together, and nothing per product outlives
 * the build but the arenas' rows.
 */
import { CatalogColumns } from '../catalog-columns.js';
import type { ColumnFields } from '../columns-state.js';
import type { SearchDocument } from '../search-engine.js';
import type { AttributeValues } from './attribute-values.js';
import { cosineMatrix } from './cosine-matrix.js';
import { analyzeDocument, rowLength } from './document-analysis.js';
import { ForwardIndexBuilder } from './forward-index.js';
import type { SnapshotParts } from './merchant-index.js';
import type { TermDictionary } from './term-dictionary.js';

/** Fresh vectors are gathered in chunks of this many rows until the matrix is made (its size known). */
const CHUNK_ROWS = 4_096;

export class SnapshotBuilder {
  private readonly forward = new ForwardIndexBuilder();
  readonly ids: string[] = [];
  /** Each row's source of its vector: ≥ 0, a row of `before`; −1, a fresh vector (in `chunks`); −2, none. */
  private sources: Int32Array = new Int32Array(1024);
  private readonly chunks: Float32Array[] = [];
  private freshVectors = 0;
  /** Each row's column fields, when the columns are to be made here (see build). */
  private readonly fields: ColumnFields[] | undefined;

  constructor(
    private readonly dims: number,
    private readonly dictionary: TermDictionary,
    private readonly attributes: AttributeValues,
    /** The snapshot rows are copied from. */
    private readonly before: SnapshotParts | undefined,
    { ownColumns }: { ownColumns: boolean },
  ) {
    this.fields = ownColumns ? [] : undefined;
  }

  get size(): number {
    return this.ids.length;
  }

  add(doc: SearchDocument): void {
    this.forward.push(analyzeDocument(doc, this.dictionary, this.attributes));
    const vector = doc.vector && doc.vector.length === this.dims ? doc.vector : undefined;
    if (vector) {
      const chunk = Math.floor(this.freshVectors / CHUNK_ROWS);
      if (chunk === this.chunks.length) this.chunks.push(new Float32Array(CHUNK_ROWS * this.dims));
      this.chunks[chunk]!.set(vector, (this.freshVectors % CHUNK_ROWS) * this.dims);
      this.freshVectors++;
    }
    this.row(doc.id, vector ? -1 : -2);
    this.fields?.push({ id: doc.id, title: doc.title, category: doc.category, vendor: doc.vendor, tags: doc.tags, price: doc.price });
  }

  /** Keeps row `row` of the snapshot before. */
  keep(row: number): void {
    const before = this.before!;
    const { data, starts } = before.forward;
    this.forward.copy(before.forward, row, rowLength(data, starts[row]!));
    this.row(before.columns.ids[row]!, before.vectors.hasVector[row] ? row : -2);
    this.fields?.push(before.columns.fields(row));
  }

  private row(id: string, source: number): void {
    if (this.ids.length === this.sources.length) {
      const grown = new Int32Array(this.sources.length * 2);
      grown.set(this.sources);
      this.sources = grown;
    }
    this.sources[this.ids.length] = source;
    this.ids.push(id);
  }

  /** The parts, with `columns` (the catalog's own, of exactly these rows in this order) or columns made of the rows' fields. */
  build(columns?: CatalogColumns): SnapshotParts {
    const n = this.ids.length;
    const dims = this.dims;
    const matrix = cosineMatrix(n, dims);
    const hasVector = new Uint8Array(n);
    let fresh = 0;
    for (let i = 0; i < n; i++) {
      const source = this.sources[i]!;
      if (source === -2) continue;
      hasVector[i] = 1;
      if (source === -1) {
        const chunk = this.chunks[Math.floor(fresh / CHUNK_ROWS)]!;
        const at = (fresh++ % CHUNK_ROWS) * dims;
        matrix.setRow(i, chunk.subarray(at, at + dims));
      } else matrix.copyRow(this.before!.vectors.matrix, source, i);
    }
    this.chunks.length = 0;
    if (columns && (columns.size !== n || columns.ids.some((id, i) => id !== this.ids[i]))) {
      throw new Error('the columns given are not of the rows loaded, in their order');
    }
    const made = columns ?? new CatalogColumns(this.fields ?? []);
    return { forward: this.forward.build(), vectors: { matrix, hasVector, dims }, columns: made };
  }
}
