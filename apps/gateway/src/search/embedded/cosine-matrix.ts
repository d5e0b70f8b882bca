/**
 * A snapshot's product vectors (one row of `dims` float32 per product) and the query's cosine to
 * every row. Semantic matching compares the query with every product: at 50,000 products × 100
 * dimensions that is 5 million multiply-adds a query, 7–9 ms in JavaScript on this project's
 * machines and about 1 ms in WebAssembly SIMD (dot-kernel.wat, four lanes at a time). Rows and cosines then live in the kernel's own
 * memory, so nothing is copied but the query.
 *
 * Small matrices (and dimensions that are not a multiple of 4) stay in plain arrays: each
 * WebAssembly memory reserves gigabytes of address space, which thousands of small merchants'
 * snapshots should not. Sums are float32 in the kernel, float64 in JavaScript: the cosines differ
 * by less than 1e-6.
 */
import { DOT_KERNEL_WASM } from './dot-kernel.wasm.js';

/** Below this many floats (1,000 products of 100 dimensions), JavaScript's loop is fast enough. */
export const KERNEL_MIN_FLOATS = 100_000;
const PAGE = 65_536;
/** The kernel addresses its memory with 32-bit offsets. */
const MAX_KERNEL_BYTES = 2 ** 31;

export interface CosineMatrix {
  /** Row d holds product d's unit vector (zeros: no vector). */
  readonly rows: Float32Array;
  /** After `cosineAll`: the query's cosine to each row. */
  readonly cosines: Float32Array;
  /** Fills `cosines` for a unit query vector of `dims` floats; returns the largest (-1 without rows). */
  cosineAll(query: Float32Array): number;
  /** Whether the WebAssembly kernel computes them (for tests and benchmarks). */
  readonly kernel: boolean;
}

interface DotKernel {
  dots(query: number, matrix: number, n: number, dims: number, out: number): number;
}

const kernelModule = compile();

function compile(): WebAssembly.Module | undefined {
  try {
    return new WebAssembly.Module(Buffer.from(DOT_KERNEL_WASM, 'base64'));
  } catch {
    return undefined; // no WebAssembly SIMD in this runtime: JavaScript computes the cosines
  }
}

export function cosineMatrix(n: number, dims: number, { kernel = true }: { kernel?: boolean } = {}): CosineMatrix {
  const floats = n * dims;
  const bytes = (dims + floats + n) * 4;
  if (kernel && kernelModule && dims % 4 === 0 && floats >= KERNEL_MIN_FLOATS && bytes <= MAX_KERNEL_BYTES) {
    return kernelMatrix(kernelModule, n, dims, bytes);
  }
  return scriptMatrix(n, dims);
}

/** Memory: the query, then the rows, then the cosines. */
function kernelMatrix(module: WebAssembly.Module, n: number, dims: number, bytes: number): CosineMatrix {
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
  const { dots } = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as DotKernel;
  const rowsAt = dims * 4;
  const cosinesAt = rowsAt + n * dims * 4;
  const query = new Float32Array(memory.buffer, 0, dims);
  const rows = new Float32Array(memory.buffer, rowsAt, n * dims);
  const cosines = new Float32Array(memory.buffer, cosinesAt, n);
  return {
    rows,
    cosines,
    kernel: true,
    cosineAll(vector) {
      query.set(vector);
      return dots(0, rowsAt, n, dims, cosinesAt);
    },
  };
}

function scriptMatrix(n: number, dims: number): CosineMatrix {
  const rows = new Float32Array(n * dims);
  const cosines = new Float32Array(n);
  return {
    rows,
    cosines,
    kernel: false,
    cosineAll(vector) {
      let best = -1;
      for (let d = 0; d < n; d++) {
        const base = d * dims;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let i = 0;
        for (; i + 3 < dims; i += 4) {
          s0 += vector[i]! * rows[base + i]!;
          s1 += vector[i + 1]! * rows[base + i + 1]!;
          s2 += vector[i + 2]! * rows[base + i + 2]!;
          s3 += vector[i + 3]! * rows[base + i + 3]!;
        }
        for (; i < dims; i++) s0 += vector[i]! * rows[base + i]!;
        const cos = s0 + s1 + s2 + s3;
        cosines[d] = cos;
        if (cos > best) best = cos;
      }
      return best;
    },
  };
}
