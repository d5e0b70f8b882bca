/**
 * Every document's analysis (document-analysis.ts) in one arena, a row per document: row i's
 * entries are `data[starts[i]]` to `data[starts[i + 1] - 1]`. Two typed arrays for a whole
 * snapshot rather than one per document: at a million products, a million small backing stores
 * cost their objects and, once freed and mixed with live ones, memory the process cannot give
 * back (measured with bench:http:heap). A snapshot made after a change copies the rows it keeps.
 */
export interface ForwardIndex {
  readonly size: number;
  readonly starts: Int32Array;
  readonly data: Int32Array;
}

/** Rows appended one by one (the arena grows by doubling; `build` trims it). */
export class ForwardIndexBuilder {
  private starts: Int32Array = new Int32Array(1024);
  private data: Int32Array = new Int32Array(16_384);
  private rows = 0;
  private used = 0;

  get size(): number {
    return this.rows;
  }

  /** Appends a row of `length` entries of `source` from `from`. */
  push(source: ArrayLike<number>, from = 0, length = source.length - from): void {
    if (this.rows + 2 > this.starts.length) this.starts = grown(this.starts, this.rows + 2);
    if (this.used + length > this.data.length) this.data = grown(this.data, this.used + length);
    const data = this.data;
    for (let k = 0; k < length; k++) data[this.used + k] = source[from + k]!;
    this.used += length;
    this.starts[++this.rows] = this.used;
  }

  /** Appends row `row` of another forward index. */
  copy(from: ForwardIndex, row: number): void {
    const start = from.starts[row]!;
    this.push(from.data, start, from.starts[row + 1]! - start);
  }

  build(): ForwardIndex {
    return { size: this.rows, starts: this.starts.slice(0, this.rows + 1), data: this.data.slice(0, this.used) };
  }
}

function grown(array: Int32Array, needed: number): Int32Array {
  const out = new Int32Array(Math.max(needed, array.length * 2));
  out.set(array);
  return out;
}
