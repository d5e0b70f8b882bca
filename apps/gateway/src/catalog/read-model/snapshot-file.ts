/**
 * The file a persisted catalog snapshot lives in: a header (JSON) naming its sections, then each
 * section's bytes — typed arrays as they are in memory (little-endian, 8-byte aligned), string
 * lists as byte offsets and UTF-8. Written to a temporary name and renamed, so a reader never sees
 * half a file; read section by section into arrays of their own (never the whole file at once:
 * at a million products it is over a gigabyte), and refused whole when anything does not add up
 * or a section's digest (MD5, as a checksum: the file is ours, not an adversary's) differs.
 */
import { createHash, type Hash } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { nextTurn } from '../../kernel/concurrency/next-turn.js';

const MAGIC = Buffer.from('CGSNAP01');
/** Strings are written and read through windows of this many bytes. */
const WINDOW = 16 * 1024 * 1024;
/** Strings measured between two turns of the event loop. */
const STRINGS_A_TURN = 50_000;

type Typed = Int32Array | Float64Array | Float32Array | Uint8Array | Int8Array;
const KINDS = { i32: Int32Array, f64: Float64Array, f32: Float32Array, u8: Uint8Array, i8: Int8Array } as const;
type Kind = keyof typeof KINDS;

export type SectionValue = Typed | readonly string[];

interface SectionEntry {
  name: string;
  kind: Kind | 'strings';
  /** Elements (strings: how many). */
  length: number;
  offset: number;
  bytes: number;
  md5: string;
}

interface Header<M> {
  meta: M;
  sections: SectionEntry[];
  size: number;
}

/** The file is not a snapshot this code can read (truncated, corrupt, another format). */
export class SnapshotFileError extends Error {
  override name = 'SnapshotFileError';
}

const align = (n: number) => Math.ceil(n / 8) * 8;

function kindOf(value: Typed): Kind {
  if (value instanceof Int32Array) return 'i32';
  if (value instanceof Float64Array) return 'f64';
  if (value instanceof Float32Array) return 'f32';
  if (value instanceof Int8Array) return 'i8';
  return 'u8';
}

/** A digest's length in the header, written before the digests are known (see writeSnapshotFile). */
const UNKNOWN_MD5 = '0'.repeat(32);

/**
 * Writes `sections` and `meta` to `path` (atomically: a temporary file renamed). One pass over the
 * bytes: each section is hashed as it is written, then the header, whose length the digests do not
 * change, is written at the front. Every write is awaited, so a large catalog's snapshot never holds
 * the event loop for long (at a million products the bytes are over a gigabyte).
 */
export async function writeSnapshotFile<M>(path: string, meta: M, sections: Record<string, SectionValue>): Promise<number> {
  const entries: SectionEntry[] = [];
  const lengths = new Map<string, Float64Array>();
  let offset = 0;
  for (const [name, value] of Object.entries(sections)) {
    let bytes: number;
    if (isStrings(value)) {
      const ends = new Float64Array(value.length + 1);
      for (let i = 0; i < value.length; i++) {
        ends[i + 1] = ends[i]! + Buffer.byteLength(value[i]!);
        // A million products' texts measured at once held the event loop for seconds: other work runs between batches.
        if (i % STRINGS_A_TURN === STRINGS_A_TURN - 1) await nextTurn();
      }
      lengths.set(name, ends);
      bytes = ends.byteLength + ends[value.length]!;
      entries.push({ name, kind: 'strings', length: value.length, offset, bytes, md5: UNKNOWN_MD5 });
    } else {
      bytes = value.byteLength;
      entries.push({ name, kind: kindOf(value), length: value.length, offset, bytes, md5: UNKNOWN_MD5 });
    }
    offset = align(offset + bytes);
  }
  const preamble = (): Buffer => {
    const headerJson = Buffer.from(JSON.stringify({ meta, sections: entries, size: offset } satisfies Header<M>));
    const bytes = Buffer.alloc(align(MAGIC.length + 4 + headerJson.length));
    MAGIC.copy(bytes, 0);
    bytes.writeUInt32LE(headerJson.length, MAGIC.length);
    headerJson.copy(bytes, MAGIC.length + 4);
    return bytes;
  };
  const base = preamble().length;
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w');
  try {
    for (const entry of entries) {
      const value = sections[entry.name]!;
      const at = base + entry.offset;
      const hash = createHash('md5');
      if (isStrings(value)) await writeStrings(file, at, value, lengths.get(entry.name)!, hash);
      else {
        // A window at a time, hashed then written: a section of hundreds of MB (a million products' vectors)
        // hashed at once held the event loop for a second and more.
        const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
        for (let from = 0; from < bytes.byteLength; from += WINDOW) {
          const part = bytes.subarray(from, Math.min(bytes.byteLength, from + WINDOW));
          hash.update(part);
          await file.write(part, 0, part.byteLength, at + from);
        }
      }
      entry.md5 = hash.digest('hex');
    }
    const header = preamble();
    if (header.length !== base) throw new Error('the snapshot header changed length');
    await file.write(header, 0, header.length, 0);
    await file.truncate(base + offset); // the last section's padding too, whatever its length
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporary, path);
  return base + offset;
}

async function writeStrings(file: FileHandle, at: number, strings: readonly string[], ends: Float64Array, hash: Hash): Promise<void> {
  const endBytes = new Uint8Array(ends.buffer);
  hash.update(endBytes);
  await file.write(endBytes, 0, endBytes.byteLength, at);
  let position = at + ends.byteLength;
  const window = Buffer.allocUnsafe(WINDOW);
  let used = 0;
  const flush = async (bytes: Buffer) => {
    hash.update(bytes);
    await file.write(bytes, 0, bytes.length, position);
    position += bytes.length;
  };
  for (const text of strings) {
    const length = Buffer.byteLength(text);
    if (used + length > WINDOW) {
      await flush(window.subarray(0, used));
      used = 0;
    }
    if (length > WINDOW) {
      await flush(Buffer.from(text));
      continue;
    }
    used += window.write(text, used);
  }
  if (used) await flush(window.subarray(0, used));
}

function isStrings(value: SectionValue): value is readonly string[] {
  return Array.isArray(value);
}

/** A snapshot file opened: its meta, then its sections read one at a time. */
export class SnapshotReader<M> {
  private constructor(
    private readonly file: FileHandle,
    readonly meta: M,
    private readonly sections: Map<string, SectionEntry>,
    private readonly base: number,
  ) {}

  /** Opens `path`; undefined when there is no such file. */
  static async open<M>(path: string): Promise<SnapshotReader<M> | undefined> {
    let file: FileHandle;
    try {
      file = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const { size } = await file.stat();
      const start = Buffer.alloc(MAGIC.length + 4);
      await readExactly(file, start, 0);
      if (!start.subarray(0, MAGIC.length).equals(MAGIC)) throw new SnapshotFileError('not a catalog snapshot of this format');
      const headerLength = start.readUInt32LE(MAGIC.length);
      if (headerLength > size) throw new SnapshotFileError('truncated header');
      const headerJson = Buffer.alloc(headerLength);
      await readExactly(file, headerJson, MAGIC.length + 4);
      const header = JSON.parse(headerJson.toString()) as Header<M>;
      const base = align(MAGIC.length + 4 + headerLength);
      if (base + header.size !== size) throw new SnapshotFileError(`the file is ${size} bytes, its header says ${base + header.size}`);
      return new SnapshotReader(file, header.meta, new Map(header.sections.map((entry) => [entry.name, entry])), base);
    } catch (error) {
      await file.close();
      if (error instanceof SyntaxError) throw new SnapshotFileError('corrupt header');
      throw error;
    }
  }

  private entry(name: string, kind: SectionEntry['kind']): SectionEntry {
    const entry = this.sections.get(name);
    if (!entry || entry.kind !== kind) throw new SnapshotFileError(`no ${kind} section ${name}`);
    return entry;
  }

  async typed<K extends Kind>(name: string, kind: K): Promise<InstanceType<(typeof KINDS)[K]>> {
    const entry = this.entry(name, kind);
    const Type = KINDS[kind];
    const value = new Type(entry.length) as InstanceType<(typeof KINDS)[K]>;
    if (value.byteLength !== entry.bytes) throw new SnapshotFileError(`section ${name} has ${entry.bytes} bytes for ${entry.length} elements`);
    await readExactly(this.file, new Uint8Array(value.buffer), this.base + entry.offset);
    if (createHash('md5').update(new Uint8Array(value.buffer)).digest('hex') !== entry.md5) throw new SnapshotFileError(`section ${name} is corrupt`);
    return value;
  }

  async strings(name: string): Promise<string[]> {
    const entry = this.entry(name, 'strings');
    const ends = new Float64Array(entry.length + 1);
    await readExactly(this.file, new Uint8Array(ends.buffer), this.base + entry.offset);
    const from = this.base + entry.offset + ends.byteLength;
    const hash = createHash('md5').update(new Uint8Array(ends.buffer));
    if (ends.byteLength + ends[entry.length]! !== entry.bytes) throw new SnapshotFileError(`section ${name} does not add up`);
    const out: string[] = new Array(entry.length);
    let window = Buffer.allocUnsafe(Math.min(WINDOW, Math.max(1, ends[entry.length]!)));
    let windowStart = 0;
    let windowEnd = 0;
    // Each byte is hashed once, a window at a time (a string across two windows is read twice).
    let hashed = 0;
    for (let i = 0; i < entry.length; i++) {
      const start = ends[i]!;
      const end = ends[i + 1]!;
      if (end < start) throw new SnapshotFileError(`section ${name} does not add up`);
      if (end > windowEnd) {
        if (end - start > window.length) window = Buffer.allocUnsafe(end - start);
        const length = Math.min(window.length, ends[entry.length]! - start);
        await readExactly(this.file, window.subarray(0, length), from + start);
        windowStart = start;
        windowEnd = start + length;
        hash.update(window.subarray(hashed - windowStart, length));
        hashed = windowEnd;
      }
      out[i] = window.toString('utf8', start - windowStart, end - windowStart);
    }
    if (hash.digest('hex') !== entry.md5) throw new SnapshotFileError(`section ${name} is corrupt`);
    return out;
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

async function readExactly(file: FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.byteLength) {
    const { bytesRead } = await file.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) throw new SnapshotFileError('truncated');
    done += bytesRead;
  }
}
