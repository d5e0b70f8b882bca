/**
 * The compact word-vector file the local embedder loads: a header line, the vocabulary in
 * frequency order (one word a line), one float32 scale per word, then an int8 matrix
 * (words × dims). A word's vector is `int8 row × scale`; rows are unit length before
 * quantisation.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

export const MAGIC = 'WVEC1';

export interface VectorFileHeader {
  dims: number;
  count: number;
  vocabBytes: number;
  source: string;
  postprocess: string;
}

export interface WordVectors {
  header: VectorFileHeader;
  /** word → row (the row is also the word's frequency rank). */
  index: Map<string, number>;
  scales: Float32Array;
  matrix: Int8Array;
}

export function encodeVectorFile(header: Omit<VectorFileHeader, 'vocabBytes'>, words: string[], scales: Float32Array, matrix: Int8Array): Buffer {
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const head = Buffer.from(`${MAGIC} ${JSON.stringify({ ...header, vocabBytes: vocab.length })}\n`, 'utf8');
  const before = head.length + vocab.length;
  const padding = Buffer.alloc((4 - (before % 4)) % 4);
  return Buffer.concat([head, vocab, padding, Buffer.from(scales.buffer, scales.byteOffset, scales.byteLength), Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength)]);
}

/** Only the header: what the file holds, without loading it. */
export function readVectorHeader(path: string): VectorFileHeader {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const first = buffer.subarray(0, length).toString('utf8').split('\n', 1)[0]!;
    if (!first.startsWith(`${MAGIC} `)) throw new Error(`${path} is not a word-vector file (${MAGIC})`);
    return JSON.parse(first.slice(MAGIC.length + 1)) as VectorFileHeader;
  } finally {
    closeSync(fd);
  }
}

export function readVectorFile(path: string): WordVectors {
  const file = readFileSync(path);
  const newline = file.indexOf(10);
  const first = file.subarray(0, newline).toString('utf8');
  if (!first.startsWith(`${MAGIC} `)) throw new Error(`${path} is not a word-vector file (${MAGIC})`);
  const header = JSON.parse(first.slice(MAGIC.length + 1)) as VectorFileHeader;
  const vocabStart = newline + 1;
  const words = file.subarray(vocabStart, vocabStart + header.vocabBytes).toString('utf8').split('\n');
  if (words.length !== header.count) throw new Error(`${path}: ${words.length} words, header says ${header.count}`);
  const index = new Map<string, number>();
  for (let i = 0; i < words.length; i++) index.set(words[i]!, i);
  let offset = vocabStart + header.vocabBytes;
  offset += (4 - (offset % 4)) % 4;
  // Views over the file's own memory when it is aligned (it is, for a file read whole); a copy otherwise.
  const start = file.byteOffset + offset;
  const scales =
    start % 4 === 0
      ? new Float32Array(file.buffer, start, header.count)
      : new Float32Array(Uint8Array.prototype.slice.call(file, offset, offset + header.count * 4).buffer);
  offset += header.count * 4;
  const matrix = new Int8Array(file.buffer, file.byteOffset + offset, header.count * header.dims);
  return { header, index, scales, matrix };
}
