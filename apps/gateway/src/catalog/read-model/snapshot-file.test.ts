import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotFileError, SnapshotReader, writeSnapshotFile } from './snapshot-file.js';

const dir = mkdtempSync(join(tmpdir(), 'snapshot-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** More than one 16 MB window of strings, with multi-byte characters, an empty string and one longer than… nothing else. */
function texts(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 19_000; i++) out.push(`{"id":"p${i}","title":"Äpplarö ${i} – ${'x'.repeat(900 + (i % 97))}"}`);
  out.splice(7, 0, '');
  return out;
}

describe('snapshot files', () => {
  const strings = texts();
  const codes = Int8Array.from({ length: 1_003 }, (_, i) => (i % 256) - 128);
  const scales = Float32Array.from({ length: 97 }, (_, i) => i / 7);

  it('read back every section exactly, strings across the windows they are written and read through', async () => {
    const path = join(dir, 'whole.snap');
    const size = await writeSnapshotFile(path, { version: 3 }, { texts: strings, codes, scales });
    expect(readFileSync(path).length).toBe(size);
    const reader = (await SnapshotReader.open<{ version: number }>(path))!;
    try {
      expect(reader.meta).toEqual({ version: 3 });
      expect(await reader.strings('texts')).toEqual(strings);
      expect(Array.from(await reader.typed('codes', 'i8'))).toEqual(Array.from(codes));
      expect(Array.from(await reader.typed('scales', 'f32'))).toEqual(Array.from(scales));
    } finally {
      await reader.close();
    }
  });

  it('refuse a section with one byte changed, wherever the byte is', async () => {
    const path = join(dir, 'damaged.snap');
    await writeSnapshotFile(path, {}, { texts: strings, codes });
    const whole = readFileSync(path);
    // A byte of a string in the second window, and one of the last section.
    for (const [at, section] of [
      [Math.floor(whole.length * 0.8), 'texts'],
      [whole.length - 10, 'codes'],
    ] as const) {
      const damaged = Buffer.from(whole);
      damaged[at] = damaged[at]! ^ 0x01;
      writeFileSync(path, damaged);
      const reader = (await SnapshotReader.open(path))!;
      try {
        const read = section === 'texts' ? reader.strings('texts') : reader.typed('codes', 'i8');
        await expect(read).rejects.toThrow(SnapshotFileError);
      } finally {
        await reader.close();
      }
    }
  });
});
