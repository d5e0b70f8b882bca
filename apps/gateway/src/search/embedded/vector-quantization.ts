/**
 * int8 codes for the product vectors of a CosineMatrix (cosine-matrix.ts), and int16 codes for the
 * query they are compared with. A million products × 100 float32 dimensions are 400 MB, and every
 * query reads them all; one byte a dimension (plus one float32 scale a row) is a quarter of that.
 *
 * A row: scale = maxAbs / 127, code = round(x / scale), so x ≈ code × scale with an error of at
 * most scale / 2 per dimension (for a unit vector of 100 dimensions, a cosine off by about 1e-3).
 * The scale is chosen so that quantizing a row's dequantized copy gives back the same codes and the
 * same scale: a vector read back from a matrix (CosineMatrix.vector) and written again (setRow)
 * never drifts, however often.
 *
 * The query: int16 codes (error ~1e-5, noise beside the rows'), as large as the kernel's 32-bit
 * sums allow: |code_row| ≤ 127 and |code_query| ≤ Q over the codes read a row stay below 2^31.
 */

export const ROW_CODE_MAX = 127;
const QUERY_CODE_MAX = 32_767;
const I32_MAX = 2 ** 31 - 1;
/** The kernel reads eight codes at a time. */
const CODES_PER_LOAD = 8;

/**
 * Codes the kernel reads a row (dims rounded up to its load): the query's codes are padded with
 * zeros to this width, so a row's last load, which runs into the next row's first codes, multiplies
 * them by 0. Rows themselves take exactly `dims` bytes, one after another.
 */
export function queryWidth(dims: number): number {
  return Math.ceil(dims / CODES_PER_LOAD) * CODES_PER_LOAD;
}

/** Writes `vector`'s codes into codes[offset, offset + vector.length); returns the row's scale (0: a zero vector). */
export function quantizeRow(vector: ArrayLike<number>, codes: Int8Array, offset: number): number {
  const dims = vector.length;
  let maxAbs = 0;
  for (let i = 0; i < dims; i++) maxAbs = Math.max(maxAbs, Math.abs(vector[i]!));
  if (!(maxAbs > 0) || !Number.isFinite(maxAbs)) {
    codes.fill(0, offset, offset + dims);
    return 0;
  }
  const scale = stableScale(maxAbs);
  for (let i = 0; i < dims; i++) codes[offset + i] = Math.max(-ROW_CODE_MAX, Math.min(ROW_CODE_MAX, Math.round(vector[i]! / scale)));
  return scale;
}

/** Fills `into` (dims floats) with the row's dequantized values. */
export function dequantizeRow(codes: Int8Array, offset: number, scale: number, into: Float32Array): Float32Array {
  for (let i = 0; i < into.length; i++) into[i] = codes[offset + i]! * scale;
  return into;
}

/**
 * maxAbs / 127 as a float32, nudged to a fixed point of "dequantize the largest code, quantize
 * again": requantizing a dequantized row sees maxAbs' = fround(127 × scale) and must find `scale`.
 */
function stableScale(maxAbs: number): number {
  let scale = Math.fround(maxAbs / ROW_CODE_MAX);
  for (let step = 0; step < 8; step++) {
    const again = Math.fround(Math.fround(ROW_CODE_MAX * scale) / ROW_CODE_MAX);
    if (again === scale) break;
    scale = again;
  }
  return scale;
}

/** The largest query code for `width` codes a row: every 32-bit sum of products stays exact. */
export function queryCodeMax(width: number): number {
  return Math.min(QUERY_CODE_MAX, Math.floor(I32_MAX / (ROW_CODE_MAX * Math.max(1, width))));
}

/**
 * Writes the query's int16 codes into `into` (its first vector.length entries; the rest stay 0)
 * and returns the query's scale as a float32 (0: a zero query).
 */
export function quantizeQuery(vector: ArrayLike<number>, into: Int16Array, codeMax: number): number {
  const dims = vector.length;
  let maxAbs = 0;
  for (let i = 0; i < dims; i++) maxAbs = Math.max(maxAbs, Math.abs(vector[i]!));
  if (!(maxAbs > 0) || !Number.isFinite(maxAbs)) {
    into.fill(0);
    return 0;
  }
  const scale = Math.fround(maxAbs / codeMax);
  for (let i = 0; i < dims; i++) into[i] = Math.max(-codeMax, Math.min(codeMax, Math.round(vector[i]! / scale)));
  return scale;
}

/**
 * A row's cosine from its integer dot product with the query's codes, rounded exactly as the
 * kernel rounds it (float32: the sum, × the row's scale, × the query's scale).
 */
export function cosineFromCodes(dot: number, rowScale: number, queryScale: number): number {
  return Math.fround(Math.fround(Math.fround(dot) * rowScale) * queryScale);
}
