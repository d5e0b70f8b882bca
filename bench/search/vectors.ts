/**
 * The semantic scan's cost per query at a million products: the float32 rows the gateway scanned
 * before (float32-dot-kernel.wat) against its int8 rows (cosine-matrix.ts: int16 query codes,
 * i32x4.dot_i16x8_s), and the int8 alternative it does not use (int8-f32-dot-kernel.wat: codes
 * dequantized to f32 lanes). The scan reads every row, so it is bound by memory: bytes per row
 * is the figure to cut. The machine is shared and noisy, so the kernels alternate round by round
 * in one run and the ratios compare a round's own figures.
 *
 *   npx tsx bench/search/vectors.ts                           # 200,000 and 1,000,000 rows × 100 dims
 *   ROWS=50000 DIMS=256 ROUNDS=9 npx tsx bench/search/vectors.ts
 *
 * Also prints each int8 kernel's largest cosine error against float64 sums of the float32 rows
 * (random unit vectors).
 */
import { readFileSync } from 'node:fs';
import { compileWat } from '../../apps/gateway/scripts/build-dot-kernel.mjs';
import { cosineMatrix, type CosineMatrix } from '../../apps/gateway/src/search/embedded/cosine-matrix.js';
import { queryWidth, quantizeRow } from '../../apps/gateway/src/search/embedded/vector-quantization.js';

const sizes = (process.env.ROWS ?? '200000,1000000').split(',').map(Number);
const dims = Number(process.env.DIMS ?? 100);
const rounds = Number(process.env.ROUNDS ?? 7);
const QUERIES = 16;
const PAGE = 65_536;

interface Kernel {
  name: string;
  bytesPerRow: number;
  cosines: Float32Array;
  scan(query: Float32Array): number;
}

const wasm = async (file: string) => new WebAssembly.Module(await compileWat(file, readFileSync(new URL(file, import.meta.url), 'utf8')));
const float32Module = await wasm('./float32-dot-kernel.wat');
const int8F32Module = await wasm('./int8-f32-dot-kernel.wat');

/** Deterministic unit vectors (a linear congruential generator). */
function vectorSource(seed: number): () => Float32Array {
  let state = seed;
  const next = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
  return () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
}

function instance(module: WebAssembly.Module, bytes: number): { memory: WebAssembly.Memory; exports: Record<string, CallableFunction> } {
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
  return { memory, exports: new WebAssembly.Instance(module, { env: { memory } }).exports as Record<string, CallableFunction> };
}

/** The gateway's layout before: the query, then n × dims f32 rows, then the cosines. */
function float32Kernel(n: number): Kernel & { rows: Float32Array } {
  const rowsAt = dims * 4;
  const cosinesAt = rowsAt + n * dims * 4;
  const { memory, exports } = instance(float32Module, cosinesAt + n * 4);
  const query = new Float32Array(memory.buffer, 0, dims);
  const rows = new Float32Array(memory.buffer, rowsAt, n * dims);
  const cosines = new Float32Array(memory.buffer, cosinesAt, n);
  return {
    name: 'float32 (before)',
    bytesPerRow: dims * 4,
    rows,
    cosines,
    scan(vector) {
      query.set(vector);
      return exports.dots!(0, rowsAt, n, dims, cosinesAt) as number;
    },
  };
}

/** The alternative: a float32 query (stride floats), scales, cosines, then the int8 rows. */
function int8F32Kernel(n: number): Kernel & { setRow(d: number, v: Float32Array): void } {
  const stride = queryWidth(dims); // rows padded to the kernel's load (the gateway's are not: its int16 query is)
  const scalesAt = stride * 4;
  const cosinesAt = scalesAt + n * 4;
  const codesAt = cosinesAt + n * 4;
  const { memory, exports } = instance(int8F32Module, codesAt + n * stride);
  const query = new Float32Array(memory.buffer, 0, stride);
  const scales = new Float32Array(memory.buffer, scalesAt, n);
  const codes = new Int8Array(memory.buffer, codesAt, n * stride);
  const cosines = new Float32Array(memory.buffer, cosinesAt, n);
  return {
    name: 'int8, f32 lanes (not used)',
    bytesPerRow: stride + 4,
    cosines,
    setRow: (d, v) => void (scales[d] = quantizeRow(v, codes, d * stride)),
    scan(vector) {
      query.set(vector);
      return exports.cosines!(0, codesAt, scalesAt, n, stride, cosinesAt) as number;
    },
  };
}

function int8Kernel(matrix: CosineMatrix): Kernel {
  if (!matrix.kernel) throw new Error('the int8 matrix is not in WebAssembly');
  return { name: 'int8, i16 dot (gateway)', bytesPerRow: matrix.bytesPerRow, cosines: matrix.cosines, scan: (q) => matrix.cosineAll(q) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const n of sizes) {
  const next = vectorSource(n);
  const float32 = float32Kernel(n);
  const alternative = int8F32Kernel(n);
  const matrix = cosineMatrix(n, dims);
  for (let d = 0; d < n; d++) {
    const v = next();
    float32.rows.set(v, d * dims);
    alternative.setRow(d, v);
    matrix.setRow(d, v);
  }
  const kernels = [float32, int8Kernel(matrix), alternative];
  const queries = Array.from({ length: QUERIES }, vectorSource(n + 1));

  // Accuracy: the largest |cosine − float64 sum of the float32 row| over 4 queries × every row.
  const errors = kernels.map(() => 0);
  for (const query of queries.slice(0, 4)) {
    const exact = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      let sum = 0;
      for (let i = 0; i < dims; i++) sum += query[i]! * float32.rows[d * dims + i]!;
      exact[d] = sum;
    }
    kernels.forEach((k, j) => {
      k.scan(query);
      for (let d = 0; d < n; d++) errors[j] = Math.max(errors[j]!, Math.abs(k.cosines[d]! - exact[d]!));
    });
  }

  // Timing: rounds alternate the kernels (the order rotating), each scanning every query once.
  const ms: number[][] = kernels.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < kernels.length; j++) {
      const k = (round + j) % kernels.length;
      const kernel = kernels[k]!;
      const started = performance.now();
      for (const query of queries) kernel.scan(query);
      ms[k]!.push((performance.now() - started) / queries.length);
    }
  }

  console.log(`\n${n.toLocaleString('en')} rows × ${dims} dims, ${rounds} rounds × ${QUERIES} scans (median ms per scan; ratio: float32 ÷ this kernel, median of the rounds' own ratios)`);
  kernels.forEach((kernel, k) => {
    const ratios = ms[0]!.map((base, round) => base / ms[k]![round]!);
    console.log(
      `  ${kernel.name.padEnd(28)} ${median(ms[k]!).toFixed(2).padStart(7)} ms   ${median(ratios).toFixed(2)}× (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` +
        `   ${kernel.bytesPerRow} B/row (${(dims * 4 / kernel.bytesPerRow).toFixed(2)}× less)   max |error| ${errors[k]!.toExponential(1)}`,
    );
  });
}
