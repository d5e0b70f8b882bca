/**
 * A snapshot's product vectors and the query's cosine to every row. Semantic matching compares the
 * query with every product, so at a million products the scan is bound by the memory it reads:
 * rows are int8 codes with one float32 scale each (vector-quantization.ts), 100 + 4 bytes a row of
 * 100 dimensions instead of 400, and the WebAssembly SIMD kernel (dot-kernel.wat) multiplies them
 * with the query's int16 codes. Rows, scales and cosines live in the kernel's own memory, so nothing
 * is copied but the query. Rows are written only through setRow (which quantizes) and copyRow
 * (which copies another matrix's codes exactly).
 *
 * Small matrices stay in plain arrays with the same layout, scanned in JavaScript with the same
 * integer sums and float32 roundings (the cosines equal the kernel's): each WebAssembly memory
 * reserves gigabytes of address space, which thousands of small merchants' snapshots should not.
 */
import { DOT_KERNEL_WASM } from './dot-kernel.wasm.js';
import { cosineFromCodes, dequantizeRow, quantizeQuery, quantizeRow, queryCodeMax, queryWidth } from './vector-quantization.js';

/** Below this many dimensions in all (1,000 products of 100 dimensions), JavaScript's loop is fast enough. */
export const KERNEL_MIN_FLOATS = 100_000;
const PAGE = 65_536;
/** The kernel addresses its memory with 32-bit offsets. */
const MAX_KERNEL_BYTES = 2 ** 31;

interface DotKernel {
  cosines(query: number, codes: number, scales: number, n: number, dims: number, width: number, queryScale: number, out: number): number;
  cosinesAt(query: number, codes: number, scales: number, rows: number, count: number, dims: number, width: number, queryScale: number, out: number): void;
}

/** The arrays a matrix keeps (in the kernel's memory or in plain arrays) and how it scans them. */
interface Storage {
  /** Row d's codes at [d × dims, (d + 1) × dims). */
  codes: Int8Array;
  scales: Float32Array;
  cosines: Float32Array;
  /** The query's codes (queryWidth(dims) entries, the padding 0). */
  query: Int16Array;
  /** Fills `cosines` from `query`'s codes and scale; returns the largest (-1 without rows). */
  scan(queryScale: number): number;
  /** Fills `cosines` at the first `count` of `rows` only. */
  scanRows(queryScale: number, rows: Int32Array, count: number): void;
  kernel: boolean;
}

const kernelModule = compile();

function compile(): WebAssembly.Module | undefined {
  try {
    return new WebAssembly.Module(Buffer.from(DOT_KERNEL_WASM, 'base64'));
  } catch {
    return undefined; // no WebAssembly SIMD in this runtime: JavaScript computes the cosines
  }
}

export class CosineMatrix {
  /** After `cosineAll`: the query's cosine to each row. */
  readonly cosines: Float32Array;
  /** Whether the WebAssembly kernel computes them (for tests and benchmarks). */
  readonly kernel: boolean;
  /** Bytes a row takes: its codes and its scale. */
  readonly bytesPerRow: number;
  private readonly codes: Int8Array;
  private readonly scales: Float32Array;
  private readonly queryCodes: Int16Array;
  private readonly queryMax: number;
  private readonly scan: (queryScale: number) => number;
  private readonly scanRows: (queryScale: number, rows: Int32Array, count: number) => void;

  constructor(
    readonly size: number,
    readonly dims: number,
    { kernel = true }: { kernel?: boolean } = {},
  ) {
    const width = queryWidth(dims);
    this.queryMax = queryCodeMax(width);
    const storage = (kernel && kernelStorage(size, dims, width)) || scriptStorage(size, dims, width);
    ({ codes: this.codes, scales: this.scales, cosines: this.cosines, query: this.queryCodes, kernel: this.kernel, scan: this.scan, scanRows: this.scanRows } = storage);
    this.bytesPerRow = dims + 4;
  }

  /** Stores row i as `vector`'s codes (dims floats; a zero vector: no vector, cosine 0). */
  setRow(i: number, vector: ArrayLike<number>): void {
    if (vector.length !== this.dims) throw new RangeError(`a vector of ${this.dims} dimensions, not ${vector.length}`);
    this.scales[this.checked(i)] = quantizeRow(vector, this.codes, i * this.dims);
  }

  /** Row i as a row without a vector (zeros: every cosine to it is 0). */
  clearRow(i: number): void {
    this.codes.fill(0, this.checked(i) * this.dims, (i + 1) * this.dims);
    this.scales[i] = 0;
  }

  /** Copies row `fromRow` of `from` (of the same dims) into row `toRow`, codes and scale exactly. */
  copyRow(from: CosineMatrix, fromRow: number, toRow: number): void {
    if (from.dims !== this.dims) throw new RangeError(`rows of ${from.dims} dimensions into rows of ${this.dims}`);
    const start = from.checked(fromRow) * this.dims;
    this.codes.set(from.codes.subarray(start, start + this.dims), this.checked(toRow) * this.dims);
    this.scales[toRow] = from.scales[fromRow]!;
  }

  /** Every row's codes and scale (views of the matrix's own memory): what a persisted snapshot keeps. */
  rows(): { codes: Int8Array; scales: Float32Array } {
    return { codes: this.codes.subarray(0, this.size * this.dims), scales: this.scales.subarray(0, this.size) };
  }

  /** Every row as `rows()` gave them (of a matrix of the same size and dims), codes and scales exactly. */
  loadRows(codes: Int8Array, scales: Float32Array): void {
    if (codes.length !== this.size * this.dims || scales.length !== this.size) throw new RangeError(`rows of another matrix than ${this.size} × ${this.dims}`);
    this.codes.set(codes);
    this.scales.set(scales);
  }

  /** Row i's dequantized values (a new array). */
  vector(i: number): Float32Array {
    return dequantizeRow(this.codes, this.checked(i) * this.dims, this.scales[i]!, new Float32Array(this.dims));
  }

  /** into += weight × row i (dequantized). */
  addRow(i: number, weight: number, into: Float32Array): void {
    const base = this.checked(i) * this.dims;
    const factor = weight * this.scales[i]!;
    for (let k = 0; k < this.dims; k++) into[k]! += factor * this.codes[base + k]!;
  }

  /** Row i's cosine to a unit vector of dims floats (float64 sums over the codes, no query quantization). */
  cosine(i: number, query: ArrayLike<number>): number {
    const base = this.checked(i) * this.dims;
    let sum = 0;
    for (let k = 0; k < this.dims; k++) sum += query[k]! * this.codes[base + k]!;
    return sum * this.scales[i]!;
  }

  /** Fills `cosines` for a unit query vector of dims floats; returns the largest (-1 without rows). */
  cosineAll(query: ArrayLike<number>): number {
    return this.scan(quantizeQuery(query, this.queryCodes, this.queryMax));
  }

  /**
   * Like cosineAll, for the first `count` of `rows` only (a query's candidates): `cosines` holds
   * theirs at their rows, every other row's as it was.
   */
  cosinesAt(query: ArrayLike<number>, rows: Int32Array, count: number): void {
    if (count > rows.length) throw new RangeError(`${count} rows of a list of ${rows.length}`);
    for (let k = 0; k < count; k++) this.checked(rows[k]!);
    this.scanRows(quantizeQuery(query, this.queryCodes, this.queryMax), rows, count);
  }

  private checked(i: number): number {
    if (!(i >= 0 && i < this.size && Number.isInteger(i))) throw new RangeError(`row ${i} of ${this.size}`);
    return i;
  }
}

export function cosineMatrix(n: number, dims: number, options: { kernel?: boolean } = {}): CosineMatrix {
  return new CosineMatrix(n, dims, options);
}

/**
 * Memory: the query's codes, the scales, the cosines, then the rows' codes (each part 16-byte
 * aligned), and the few bytes the last row's last load reads past its end.
 */
function kernelStorage(n: number, dims: number, width: number): Storage | undefined {
  const queryBytes = align16(width * 2);
  const scalesAt = queryBytes;
  const cosinesAt = scalesAt + align16(n * 4);
  const rowsAt = cosinesAt + align16(n * 4);
  const codesAt = rowsAt + align16(n * 4);
  const bytes = codesAt + n * dims + (width - dims);
  if (!kernelModule || n * dims < KERNEL_MIN_FLOATS || bytes > MAX_KERNEL_BYTES) return undefined;
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
  const { cosines, cosinesAt: cosinesOfRows } = new WebAssembly.Instance(kernelModule, { env: { memory } }).exports as unknown as DotKernel;
  const rowList = new Int32Array(memory.buffer, rowsAt, n);
  return {
    query: new Int16Array(memory.buffer, 0, width),
    scales: new Float32Array(memory.buffer, scalesAt, n),
    cosines: new Float32Array(memory.buffer, cosinesAt, n),
    codes: new Int8Array(memory.buffer, codesAt, n * dims),
    kernel: true,
    scan: (queryScale) => cosines(0, codesAt, scalesAt, n, dims, width, queryScale, cosinesAt),
    scanRows(queryScale, rows, count) {
      rowList.set(rows.subarray(0, count));
      cosinesOfRows(0, codesAt, scalesAt, rowsAt, count, dims, width, queryScale, cosinesAt);
    },
  };
}

function scriptStorage(n: number, dims: number, width: number): Storage {
  const codes = new Int8Array(n * dims);
  const scales = new Float32Array(n);
  const cosines = new Float32Array(n);
  const query = new Int16Array(width);
  return {
    codes,
    scales,
    cosines,
    query,
    kernel: false,
    scan(queryScale) {
      let best = -1;
      for (let d = 0; d < n; d++) {
        const cos = rowCosine(d, queryScale);
        cosines[d] = cos;
        if (cos > best) best = cos;
      }
      return best;
    },
    scanRows(queryScale, rows, count) {
      for (let k = 0; k < count; k++) cosines[rows[k]!] = rowCosine(rows[k]!, queryScale);
    },
  };

  function rowCosine(d: number, queryScale: number): number {
    const base = d * dims;
    let s0 = 0;
    let s1 = 0;
    let i = 0;
    for (; i + 1 < dims; i += 2) {
      s0 += query[i]! * codes[base + i]!;
      s1 += query[i + 1]! * codes[base + i + 1]!;
    }
    if (i < dims) s0 += query[i]! * codes[base + i]!;
    return cosineFromCodes(s0 + s1, scales[d]!, queryScale);
  }
}

function align16(bytes: number): number {
  return Math.ceil(bytes / 16) * 16;
}
