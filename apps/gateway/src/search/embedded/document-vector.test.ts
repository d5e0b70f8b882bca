import { describe, expect, it } from 'vitest';
import { toSearchDocument } from '../product-text.js';
import { cosineMatrix } from './cosine-matrix.js';
import { storeDocumentVector } from './document-vector.js';

const dims = 100;

function unitVector(seed: number): Float32Array {
  let state = seed;
  const v = Float32Array.from({ length: dims }, () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const product = (id: string) => ({ id, title: `Lamp ${id}`, description: '', vendor: '', category: '', tags: [], attributes: {}, price: 1 });

describe('a document vector kept as a matrix row', () => {
  it("stores the document's vector as a row, and the document reads it back from there", () => {
    const original = unitVector(1);
    const doc = toSearchDocument('m', product('a'), original);
    const matrix = cosineMatrix(3, dims);
    expect(storeDocumentVector(matrix, 2, doc)).toBe(true);
    expect(doc.vector).toEqual(matrix.vector(2));
    expect(doc.vector).not.toBe(original);
    doc.vector!.forEach((x, i) => expect(Math.abs(x - original[i]!)).toBeLessThan(0.01));
    expect(JSON.parse(JSON.stringify(doc)).vector).toBeDefined(); // still an own, enumerable property
    expect({ ...doc }.vector).toEqual(matrix.vector(2));
  });

  it('copies the codes into the next snapshot exactly, however many snapshots follow', () => {
    const doc = toSearchDocument('m', product('a'), unitVector(2));
    const first = cosineMatrix(1, dims);
    storeDocumentVector(first, 0, doc);
    let matrix = first;
    for (let snapshot = 0; snapshot < 5; snapshot++) {
      const next = cosineMatrix(4, dims);
      expect(storeDocumentVector(next, snapshot % 4, doc)).toBe(true);
      expect(next.vector(snapshot % 4)).toEqual(first.vector(0));
      expect(doc.vector).toEqual(next.vector(snapshot % 4));
      matrix = next;
    }
    const query = unitVector(3);
    expect(matrix.cosine(4 % 4, query)).toBe(first.cosine(0, query));
  });

  it('leaves a document without a vector, or with one of other dimensions, untouched', () => {
    const matrix = cosineMatrix(2, dims);
    const none = toSearchDocument('m', product('a'));
    const short = toSearchDocument('m', product('b'), new Float32Array(dims - 1).fill(0.1));
    expect(storeDocumentVector(matrix, 0, none)).toBe(false);
    expect(storeDocumentVector(matrix, 1, short)).toBe(false);
    expect(none.vector).toBeUndefined();
    expect(short.vector).toHaveLength(dims - 1);
    expect(Object.getOwnPropertyDescriptor(short, 'vector')?.get).toBeUndefined();
  });
});
