/**
 * Every document's analysis (document-analysis.ts) in one arena, a row per document: row i's
 * entries start at `data[starts[i]]` and run for the row's length (its own header says it:
 * document-analysis.ts's rowLength). Made whole, the rows lie in order (row i ends where row
 * i + 1 starts); after a change, a replaced row lies past the others (withRowsReplaced). Two
 * typed arrays for a whole snapshot rather than one per document: at a million products, a million small backing stores
 * cost their objects and, once freed and mixed with live ones, memory the process cannot give
 * back (measured with bench:http:heap). A snapshot made whole after a change copies the rows it
 * keeps; one patched after a change of a few products shares them (withRowsReplaced).
 */
export interface ForwardIndex {
  readonly size: number;
  /** Row i's first entry; starts[size] is the data's length. */
  readonly starts: Int32Array;
  readonly data: Int32Array;
  /** Where rows replaced by a change are appended (withRowsReplaced); none for an index made whole. */
  readonly arena?: Arena;
}

/** An index's data with room past its end, shared by the indexes patched one from another. */
interface Arena {
  buffer: Int32Array;
  /** The data's end: the last index's. */
  used: number;
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

  /** Appends row `row` of another forward index, of `length` entries (document-analysis.ts's rowLength). */
  copy(from: ForwardIndex, row: number, length: number): void {
    this.push(from.data, from.starts[row]!, length);
  }

  build(): ForwardIndex {
    return { size: this.rows, starts: this.starts.slice(0, this.rows + 1), data: this.data.slice(0, this.used) };
  }
}

/**
 * `before` with some rows replaced (`rows`: a row's number and its new entries). The new rows are
 * appended past `before`'s data in one arena the two indexes share — `before` never reads past its
 * own end, so nothing it reads changes — and only the starts are copied; the rows replaced stay in
 * the arena unread (a whole build or a restore leaves them out). A new arena, with room to spare,
 * is made when `before` has none or is not the arena's last (another index appended past it).
 */
export function withRowsReplaced(before: ForwardIndex, rows: ReadonlyMap<number, readonly number[]>): ForwardIndex {
  let needed = 0;
  for (const entries of rows.values()) needed += entries.length;
  let arena = before.arena;
  if (!arena || arena.used !== before.data.length || arena.buffer.length < arena.used + needed) {
    const buffer = new Int32Array(Math.ceil((before.data.length + needed) * ARENA_ROOM) + 1024);
    buffer.set(before.data);
    arena = { buffer, used: before.data.length };
  }
  const starts = before.starts.slice();
  for (const [row, entries] of rows) {
    starts[row] = arena.used;
    arena.buffer.set(entries, arena.used);
    arena.used += entries.length;
  }
  starts[before.size] = arena.used;
  return { size: before.size, starts, data: arena.buffer.subarray(0, arena.used), arena };
}

/** A new arena's room: this many times the data it starts with. */
const ARENA_ROOM = 1.25;

function grown(array: Int32Array, needed: number): Int32Array {
  const out = new Int32Array(Math.max(needed, array.length * 2));
  out.set(array);
  return out;
}
