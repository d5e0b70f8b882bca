import { describe, expect, it } from 'vitest';
import { catalogFile } from './support/fixtures.js';
import { readRecords, type RawRecord } from '../src/kernel/records/record-reader.js';

async function collect(path: string): Promise<RawRecord[]> {
  const records: RawRecord[] = [];
  for await (const record of readRecords(path)) records.push(record);
  return records;
}

describe('readRecords', () => {
  it('reads NDJSON with the line of each record, skipping blank lines', async () => {
    const path = catalogFile(['{"id":"a"}', '', '{"id":"b"}']);
    expect(await collect(path)).toEqual([
      { line: 1, value: { id: 'a' } },
      { line: 3, value: { id: 'b' } },
    ]);
  });

  it('reports a malformed NDJSON line with its number and goes on', async () => {
    const records = await collect(catalogFile(['{"id":"a"}', '{"id":', '{"id":"c"}']));
    expect(records[1]).toMatchObject({ line: 2, error: expect.stringMatching(/^invalid JSON/) });
    expect(records[2]).toEqual({ line: 3, value: { id: 'c' } });
  });

  it('reads a JSON array, each element with the line it starts on', async () => {
    const path = catalogFile(['[', '  {"id": "a", "tags": ["x,]"]},', '  {"id": "b",', '   "title": "q\\"}"}', ']']);
    expect(await collect(path)).toEqual([
      { line: 2, value: { id: 'a', tags: ['x,]'] } },
      { line: 3, value: { id: 'b', title: 'q"}' } },
    ]);
  });

  it('reports an unclosed array', async () => {
    const records = await collect(catalogFile(['[{"id":"a"},']));
    expect(records.at(-1)).toMatchObject({ error: expect.stringContaining('not closed') });
  });

  it('reports a malformed array element with its line', async () => {
    const records = await collect(catalogFile(['[', '{"id":"a"},', '{"id": nope},', '{"id":"c"}', ']']));
    expect(records[1]).toMatchObject({ line: 3, error: expect.stringMatching(/^invalid JSON/) });
  });

  it('handles records split across read chunks', async () => {
    const big = Array.from({ length: 2000 }, (_, i) => ({ id: `p${i}`, description: 'x'.repeat(300) }));
    const records = await collect(catalogFile(big));
    expect(records).toHaveLength(2000);
    expect(records[1999]).toEqual({ line: 2000, value: big[1999] });
  });
});
