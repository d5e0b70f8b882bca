/**
 * A document's vector kept as its snapshot's CosineMatrix row. The engine's documents must keep
 * their vector (the next snapshot is built from them), but a float32 copy beside the matrix's int8
 * codes would undo the quantization's saving (at a million products × 100 dimensions, 400 MB
 * beside 104 MB). So once its row is stored, a document's `vector` becomes a getter that
 * dequantizes the row into a new array, and the next snapshot copies the row's codes exactly
 * (copyRow): no float copy, no requantization, no drift.
 *
 * Cost: two hidden properties a document (about 40 bytes) while its object keeps V8's fast
 * properties, which needs `vector` to be the object's last property when it is replaced
 * (toSearchDocument's order); a document shaped otherwise still works, in V8's slower, larger
 * dictionary mode.
 */
import type { CosineMatrix } from './cosine-matrix.js';

const MATRIX = Symbol('the matrix holding the vector');
const ROW = Symbol('the row holding the vector');

interface VectorDocument {
  vector?: Float32Array | undefined;
}

interface StoredVector extends VectorDocument {
  [MATRIX]: CosineMatrix;
  [ROW]: number;
}

function storedVector(this: StoredVector): Float32Array {
  return this[MATRIX].vector(this[ROW]);
}

const getter: PropertyDescriptor = { get: storedVector, enumerable: true, configurable: true };

/**
 * Stores `doc`'s vector as row `row` of `matrix` (copying the codes of the row it already is, if
 * any) and makes `doc.vector` read it from there. False (and `doc` untouched) without a vector of
 * the matrix's dimensions.
 */
export function storeDocumentVector(matrix: CosineMatrix, row: number, doc: VectorDocument): boolean {
  const stored = doc as StoredVector;
  const previous = stored[MATRIX];
  if (previous && previous.dims === matrix.dims) {
    matrix.copyRow(previous, stored[ROW], row);
  } else {
    const vector = doc.vector;
    if (!vector || vector.length !== matrix.dims) return false;
    matrix.setRow(row, vector);
  }
  if (!previous) delete doc.vector;
  stored[MATRIX] = matrix;
  stored[ROW] = row;
  if (!previous) Object.defineProperty(doc, 'vector', getter);
  return true;
}
