/**
 * A document's vector read back from its snapshot's CosineMatrix. The engine's documents must keep
 * their vector (the next snapshot is built from them), but a float32 copy beside the matrix's int8
 * codes would undo the quantization's saving (at a million products × 100 dimensions, 400 MB
 * beside 108 MB). So `vector` becomes a getter: each read dequantizes the row into a new array,
 * and setRow of that array gives the same codes and scale back (vector-quantization.ts), so the
 * vector does not drift from snapshot to snapshot.
 */
import type { CosineMatrix } from './cosine-matrix.js';

export function readVectorFromMatrix(holder: { vector?: Float32Array | undefined }, matrix: CosineMatrix, row: number): void {
  Object.defineProperty(holder, 'vector', { get: () => matrix.vector(row), enumerable: true, configurable: true });
}
