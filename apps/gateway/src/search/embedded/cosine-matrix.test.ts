import { describe, expect, it } from 'vitest';
import { cosineMatrix, KERNEL_MIN_FLOATS } from './cosine-matrix.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A deterministic unit vector (a linear congruential generator, so failures reproduce). */
function unitVectors(count: number, dims: number, seed: number): Float32Array[] {
  let state = seed;
  const next = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

function filled(n: number, dims: number, kernel: boolean, vectors: Float32Array[]) {
  const matrix = cosineMatrix(n, dims, { kernel });
  vectors.forEach((v, d) => {
    if (d % 7 !== 3) matrix.rows.set(v, d * dims); // every seventh product without a vector
  });
  return matrix;
}

describe('cosineMatrix', () => {
  const dims = 100;
  const n = Math.ceil(KERNEL_MIN_FLOATS / dims) + 37;
  const vectors = unitVectors(n, dims, 7);
  const [query] = unitVectors(1, dims, 99);

  it('computes every cosine with the WebAssembly kernel as JavaScript does, within float32 rounding', () => {
    const simd = filled(n, dims, true, vectors);
    const script = filled(n, dims, false, vectors);
    expect(simd.kernel).toBe(true);
    expect(script.kernel).toBe(false);
    const best = simd.cosineAll(query!);
    expect(best).toBeCloseTo(script.cosineAll(query!), 5);
    for (let d = 0; d < n; d++) expect(Math.abs(simd.cosines[d]! - script.cosines[d]!)).toBeLessThan(1e-5);
    expect(simd.cosines[3]).toBe(0);
    expect(best).toBe(Math.max(...simd.cosines));
  });

  it('answers a new query in the same memory, without traces of the last', () => {
    const simd = filled(n, dims, true, vectors);
    simd.cosineAll(query!);
    const again = simd.cosineAll(vectors[5]!);
    expect(simd.cosines[5]).toBeCloseTo(1, 5);
    expect(again).toBeCloseTo(1, 5);
  });

  it('keeps small matrices, and dimensions not a multiple of 4, in JavaScript', () => {
    expect(cosineMatrix(10, dims).kernel).toBe(false);
    expect(cosineMatrix(n, 99).kernel).toBe(false);
    expect(cosineMatrix(0, dims).cosineAll(query!)).toBe(-1);
    const odd = cosineMatrix(3, 3);
    odd.rows.set([1, 0, 0, 0, 1, 0, 0, 0, 0]);
    expect(odd.cosineAll(Float32Array.of(0, 1, 0))).toBe(1);
    expect([...odd.cosines]).toEqual([0, 1, 0]);
  });

  it('loads the compilation of dot-kernel.wat (scripts/build-dot-kernel.mjs)', async () => {
    const { compileDotKernel } = await import('../../../scripts/build-dot-kernel.mjs');
    expect(readFileSync(fileURLToPath(new URL('./dot-kernel.wasm.ts', import.meta.url)), 'utf8')).toBe(await compileDotKernel());
  });
});
