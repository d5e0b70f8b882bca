/** The embedder port: texts in, one unit-length vector per text out. */
export interface Embedder {
  /** Names the model and its version; stored beside each persisted vector (`embedding_model`). */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * A shopper's query, embedded forgivingly (a misspelt word the model does not know read as the
   * nearest word it does). Optional: without it a query is embedded as any text.
   */
  embedQuery?(text: string): Promise<Float32Array>;
}

export class EmbedderError extends Error {
  override name = 'EmbedderError';
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
