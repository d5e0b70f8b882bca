import { describe, expect, it } from 'vitest';
import { cosineMatrix, KERNEL_MIN_FLOATS, type CosineMatrix } from './cosine-matrix.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Deterministic unit vectors (a linear congruential generator, so failures reproduce). */
function unitVectors(count: number, dims: number, seed: number): Float32Array[] {
  let state = seed;
  const next = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

function filled(n: number, dims: number, kernel: boolean, vectors: Float32Array[]): CosineMatrix {
  const matrix = cosineMatrix(n, dims, { kernel });
  vectors.forEach((v, d) => {
    if (d % 7 !== 3) matrix.setRow(d, v); // every seventh product without a vector
  });
  return matrix;
}

function exactDot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

describe('cosineMatrix', () => {
  const dims = 100;
  const n = Math.ceil(KERNEL_MIN_FLOATS / dims) + 37;
  const vectors = unitVectors(n, dims, 7);
  const queries = unitVectors(20, dims, 99);
  const query = queries[0]!;

  it('computes every cosine with the WebAssembly kernel exactly as the JavaScript fallback does', () => {
    const simd = filled(n, dims, true, vectors);
    const script = filled(n, dims, false, vectors);
    expect(simd.kernel).toBe(true);
    expect(script.kernel).toBe(false);
    for (const q of queries) {
      const best = simd.cosineAll(q);
      expect(script.cosineAll(q)).toBe(best);
      expect(Array.from(simd.cosines)).toEqual(Array.from(script.cosines));
      expect(best).toBe(Math.max(...simd.cosines));
    }
    expect(simd.cosines[3]).toBe(0);
  });

  it('computes the cosines of listed rows only, as the whole scan does, leaving the other rows as they were', () => {
    for (const kernel of [true, false]) {
      const matrix = filled(n, dims, kernel, vectors);
      matrix.cosineAll(query);
      const whole = Float32Array.from(matrix.cosines);
      matrix.cosineAll(queries[1]!); // every row now holds another query's cosine
      const before = Float32Array.from(matrix.cosines);
      const rows = Int32Array.from([n - 1, 0, 3, 17, 18, 19, 20, 21, 500, n - 2, 999]); // the last row, a row without a vector, scattered
      matrix.cosinesAt(query, rows, 9);
      for (let d = 0; d < n; d++) {
        const listed = Array.from(rows.subarray(0, 9)).includes(d);
        expect(matrix.cosines[d], `row ${d}`).toBe(listed ? whole[d] : before[d]);
      }
      expect(() => matrix.cosinesAt(query, Int32Array.from([n]), 1)).toThrow(RangeError);
    }
  });

  it('scans blocks of four rows and the rows left over alike, whatever n mod 4', () => {
    for (const rows of [n + 1, n + 2, n + 3]) {
      const more = unitVectors(rows, dims, rows);
      const simd = filled(rows, dims, true, more);
      const script = filled(rows, dims, false, more);
      simd.setRow(rows - 1, query); // the last row the best: the leftover rows' maximum must count
      script.setRow(rows - 1, query);
      expect(simd.cosineAll(query)).toBe(script.cosineAll(query));
      expect(simd.cosines[rows - 1]).toBe(Math.max(...simd.cosines));
      expect(Array.from(simd.cosines)).toEqual(Array.from(script.cosines));
    }
  });

  it('keeps the quantized cosines within 0.5 × (row scale × |q|₁ + query scale × |row|₁) of the exact float64 ones, about 1e-3', () => {
    const simd = filled(n, dims, true, vectors);
    const rowScales = vectors.map((v) => Math.max(...v.map(Math.abs)) / 127);
    const rowL1s = vectors.map((v) => v.reduce((s, x) => s + Math.abs(x), 0));
    let worst = 0;
    let sumAbs = 0;
    for (const q of queries) {
      simd.cosineAll(q);
      const qL1 = q.reduce((s, x) => s + Math.abs(x), 0);
      const qScale = Math.max(...q.map(Math.abs)) / 32_767;
      for (let d = 0; d < n; d++) {
        if (d % 7 === 3) continue;
        const bound = 0.5 * (rowScales[d]! * qL1 + qScale * rowL1s[d]!) + 1e-6;
        const error = Math.abs(simd.cosines[d]! - exactDot(q, vectors[d]!));
        expect(error).toBeLessThanOrEqual(bound);
        worst = Math.max(worst, error);
        sumAbs += error;
      }
    }
    // The bound is the worst case; the errors' typical size (uniform rounding, partly cancelling):
    expect(worst).toBeLessThan(5e-3);
    expect(sumAbs / (queries.length * n)).toBeLessThan(1e-3);
  });

  it('gives the single-row cosine and the dequantized row in agreement with the scan', () => {
    const simd = filled(n, dims, true, vectors);
    simd.cosineAll(query);
    for (const d of [0, 1, 3, 500, n - 1]) {
      expect(simd.cosine(d, query)).toBeCloseTo(simd.cosines[d]!, 4);
      expect(simd.cosine(d, query)).toBeCloseTo(exactDot(simd.vector(d), query), 6);
      const into = new Float32Array(dims);
      simd.addRow(d, 2, into);
      simd.vector(d).forEach((x, i) => expect(into[i]).toBeCloseTo(2 * x, 6));
    }
    expect(Array.from(simd.vector(3)).every((x) => x === 0)).toBe(true);
  });

  it('copies rows exactly between matrices (kernel and JavaScript alike), without requantizing', () => {
    const source = filled(n, dims, true, vectors);
    const target = cosineMatrix(n, dims, { kernel: false });
    for (let d = 0; d < n; d++) target.copyRow(source, d, n - 1 - d);
    source.cosineAll(query);
    target.cosineAll(query);
    for (let d = 0; d < n; d++) {
      expect(target.cosines[n - 1 - d]).toBe(source.cosines[d]);
      expect(Array.from(target.vector(n - 1 - d))).toEqual(Array.from(source.vector(d)));
    }
    expect(() => target.copyRow(cosineMatrix(2, dims - 1), 0, 0)).toThrow(RangeError);
  });

  it('quantizes a dequantized row back to the same codes and scale: no drift from snapshot to snapshot', () => {
    const first = filled(n, dims, true, vectors);
    let matrix = first;
    for (let generation = 0; generation < 5; generation++) {
      const next = cosineMatrix(n, dims);
      for (let d = 0; d < n; d++) next.setRow(d, matrix.vector(d));
      matrix = next;
    }
    for (let d = 0; d < n; d += 13) expect(Array.from(matrix.vector(d))).toEqual(Array.from(first.vector(d)));
    first.cosineAll(query);
    matrix.cosineAll(query);
    expect(Array.from(matrix.cosines)).toEqual(Array.from(first.cosines));
  });

  it('answers a new query in the same memory, without traces of the last', () => {
    const simd = filled(n, dims, true, vectors);
    simd.cosineAll(query);
    const again = simd.cosineAll(vectors[5]!);
    expect(simd.cosines[5]).toBeCloseTo(1, 2);
    expect(again).toBe(simd.cosines[5]);
    expect(simd.cosineAll(new Float32Array(dims))).toBe(0); // a zero query: every cosine 0
  });

  it('scans any number of dimensions with the kernel, and keeps small matrices in JavaScript', () => {
    const odd = unitVectors(n, 99, 3);
    const simd = filled(n, 99, true, odd);
    const script = filled(n, 99, false, odd);
    expect(simd.kernel).toBe(true);
    expect(simd.bytesPerRow).toBe(99 + 4); // rows are not padded: the query is
    const [q99] = unitVectors(1, 99, 5);
    expect(simd.cosineAll(q99!)).toBe(script.cosineAll(q99!));
    expect(Array.from(simd.cosines)).toEqual(Array.from(script.cosines));

    expect(cosineMatrix(10, dims).kernel).toBe(false);
    expect(cosineMatrix(0, dims).cosineAll(query)).toBe(-1);
    const three = cosineMatrix(3, 3);
    three.setRow(0, [1, 0, 0]);
    three.setRow(1, [0, 1, 0]);
    expect(three.cosineAll(Float32Array.of(0, 1, 0))).toBe(1);
    expect([...three.cosines]).toEqual([0, 1, 0]);
    expect(() => three.setRow(3, [1, 0, 0])).toThrow(RangeError);
    expect(() => three.setRow(0, [1, 0])).toThrow(RangeError);
  });

  it('loads the compilation of dot-kernel.wat (scripts/build-dot-kernel.mjs)', async () => {
    const { compileDotKernel } = await import('../../../scripts/build-dot-kernel.mjs');
    expect(readFileSync(fileURLToPath(new URL('./dot-kernel.wasm.ts', import.meta.url)), 'utf8')).toBe(await compileDotKernel());
  });
});
