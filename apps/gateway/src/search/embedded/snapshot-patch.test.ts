import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchDocument, SearchRequest } from '../search-engine.js';
import { EmbeddedSearchEngine } from './embedded-engine.js';
import { Postings } from './postings.js';
import { rowLength } from './document-analysis.js';
import { withRowsReplaced, type ForwardIndex } from './forward-index.js';

const DIMS = 8;
const WORDS = ['oak', 'pine', 'birch', 'walnut', 'chair', 'table', 'stool', 'lamp', 'desk', 'shelf', 'sofa', 'bench'];
const COLOURS = ['red', 'green', 'blue', 'black'];

/** A deterministic vector near one axis. */
function vector(seed: number): Float32Array {
  const v = new Float32Array(DIMS).fill(0.05);
  v[seed % DIMS] = 1;
  v[(seed * 3 + 1) % DIMS] = 0.3 + (seed % 5) / 10;
  return v;
}

function doc(i: number, extra: Partial<SearchDocument> = {}): SearchDocument {
  return {
    merchantId: 'm',
    id: `p${i}`,
    title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 3) % WORDS.length]} ${i % 7 === 0 ? 'grand' : 'small'}`,
    description: '',
    vendor: i % 2 ? 'Acme' : 'Nordic',
    category: i % 3 ? 'Furniture' : 'Lighting',
    tags: [],
    attributes: { color: [COLOURS[i % COLOURS.length]!] },
    price: 10 + i,
    vector: vector(i),
    ...extra,
  };
}

afterEach(() => vi.restoreAllMocks());

const QUERIES: Omit<SearchRequest, 'merchantId'>[] = [
  ...WORDS.map((text) => ({ text, vector: undefined })),
  { text: 'oak chair', vector: vector(4) },
  { text: 'grand', vector: undefined },
  { text: 'zebrawood', vector: undefined },
  { text: 'zebrawod', vector: undefined }, // a typo of a word only the change brings
  { text: 'mahogany', vector: undefined }, // a word only the change takes away
  { text: 'red lamp', vector: vector(7) },
  { text: 'blue', vector: undefined },
  { text: 'purple', vector: undefined },
  { text: 'sto', vector: undefined }, // a prefix
  { text: 'table', vector: vector(2), filters: { category: 'Lighting', maxPrice: 40 } },
  { text: 'bench', vector: vector(9), facets: ['category', 'brand', 'price'] as const },
].map((q) => ({ filters: {}, offset: 0, limit: 50, ...q }));

async function answers(engine: EmbeddedSearchEngine) {
  return Promise.all(QUERIES.map(async (q) => ({ q: q.text, result: await engine.search({ merchantId: 'm', ...q }), spelled: engine.spell('m', q.text) })));
}

describe('a change of a few products patches the snapshot', () => {
  it('answers exactly as a snapshot made whole of the same products, without building the postings again', async () => {
    const before = Array.from({ length: 60 }, (_, i) => doc(i, i === 11 ? { title: 'mahogany chair small' } : {}));
    // Each changed product keeps its fields' lengths (in words), so the field-length averages are the same either way.
    const changed = [
      doc(5, { title: 'zebrawood desk small' }), // a word the catalog never had
      doc(11, { title: 'pine chair small' }), // the only product with `mahogany`
      doc(20, { attributes: { color: ['purple'] }, price: 35, category: 'Lighting' }), // an attribute value and the columns' fields
      doc(33, { vector: undefined }), // its vector gone
      doc(47, { vector: vector(2), title: 'walnut bench grand' }),
    ];
    const after = before.map((d) => changed.find((c) => c.id === d.id) ?? d);

    const patched = new EmbeddedSearchEngine({ dimensions: DIMS });
    await patched.index(before);
    const old = await answers(patched);
    const build = vi.spyOn(Postings, 'build');
    await patched.index(changed);
    expect(build).not.toHaveBeenCalled();

    const whole = new EmbeddedSearchEngine({ dimensions: DIMS });
    await whole.index(after);
    const expected = await answers(whole);
    expect(await answers(patched)).toEqual(expected);
    // And the change is seen: the new word found, the one taken away no longer.
    const find = (text: string) => expected.find((a) => a.q === text)!.result.hits.map((h) => h.id);
    expect(find('zebrawood')).toEqual(['p5']);
    expect(find('mahogany')).toEqual([]);
    expect(old.find((a) => a.q === 'mahogany')!.result.hits.map((h) => h.id)).toEqual(['p11']);
    expect(find('purple')).toEqual(['p20']);
  });

  it('makes the whole snapshot again when products are added or removed, or many change', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: DIMS });
    await engine.index(Array.from({ length: 20 }, (_, i) => doc(i)));
    const build = vi.spyOn(Postings, 'build');
    await engine.index([doc(3, { title: 'teak desk small' }), doc(40)]);
    expect(build).toHaveBeenCalledTimes(1);
    await engine.remove('m', ['p40']);
    expect(build).toHaveBeenCalledTimes(2);
    await engine.index(Array.from({ length: 5 }, (_, i) => doc(i, { title: `teak lamp ${i}` })));
    expect(build).toHaveBeenCalledTimes(3);
    const whole = new EmbeddedSearchEngine({ dimensions: DIMS });
    await whole.index(Array.from({ length: 20 }, (_, i) => (i < 5 ? doc(i, { title: `teak lamp ${i}` }) : doc(i))));
    expect(await answers(engine)).toEqual(await answers(whole));
  });

  it('stays exact through many changes one after another', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: DIMS });
    let docs = Array.from({ length: 60 }, (_, i) => doc(i));
    await engine.index(docs);
    for (let k = 0; k < 40; k++) {
      const i = (k * 17) % 60;
      const next = doc(i, { title: `${WORDS[(k + 2) % WORDS.length]} ${k % 2 ? 'zebrawood' : 'teak'} small`, vector: k % 5 ? vector(k) : undefined, attributes: { color: [COLOURS[k % 4]!] } });
      docs = docs.map((d) => (d.id === next.id ? next : d));
      await engine.index([next]);
    }
    const whole = new EmbeddedSearchEngine({ dimensions: DIMS });
    await whole.index(docs);
    expect(await answers(engine)).toEqual(await answers(whole));
  });
});

describe('a larger catalog, a word changed here and there', () => {
  it('answers exactly as a snapshot made whole', async () => {
    const unique = (i: number, word = `u${i}`) => doc(i, { title: `${WORDS[i % WORDS.length]} ${word} small` });
    let docs = Array.from({ length: 400 }, (_, i) => unique(i));
    const engine = new EmbeddedSearchEngine({ dimensions: DIMS });
    await engine.index(docs);
    for (const [i, word] of [[5, 'u5x'], [17, 'u300'], [250, 'oak'], [5, 'u6']] as const) {
      const next = unique(i, word);
      docs = docs.map((d) => (d.id === next.id ? next : d));
      await engine.index([next]);
    }
    const whole = new EmbeddedSearchEngine({ dimensions: DIMS });
    await whole.index(docs);
    const search = (e: EmbeddedSearchEngine, text: string) => e.search({ merchantId: 'm', text, filters: {}, offset: 0, limit: 400 });
    for (const text of ['u5', 'u5x', 'u6', 'u300', 'u17', 'oak', 'oak u250', 'small', 'chair']) expect(await search(engine, text)).toEqual(await search(whole, text));
    expect((await search(engine, 'u6 small')).hits.map((h) => h.id).sort()).toEqual(['p5', 'p6']); // the last word is also a prefix: not alone
  });
});

describe('a snapshot whose arrays were given out (a snapshot file being written)', () => {
  it('keeps them as they were through a change, and the change is still seen', async () => {
    const engine = new EmbeddedSearchEngine({ dimensions: DIMS });
    await engine.index(Array.from({ length: 30 }, (_, i) => doc(i)));
    const state = engine.state('m')!;
    const copies = { codes: state.codes.slice(), scales: state.scales.slice(), hasVector: state.hasVector.slice(), data: state.forward.data.slice() };
    await engine.index([doc(4, { title: 'zebrawood desk small', vector: vector(11) }), doc(9, { vector: undefined })]);
    expect(state.codes).toEqual(copies.codes);
    expect(state.scales).toEqual(copies.scales);
    expect(state.hasVector).toEqual(copies.hasVector);
    expect(state.forward.data).toEqual(copies.data);
    const after = engine.state('m')!;
    expect(after.hasVector[9]).toBe(0);
    expect(after.codes.subarray(4 * DIMS, 5 * DIMS)).not.toEqual(copies.codes.subarray(4 * DIMS, 5 * DIMS));
    expect((await engine.search({ merchantId: 'm', text: 'zebrawood', filters: {}, offset: 0, limit: 5 })).hits.map((h) => h.id)).toEqual(['p4']);
  });
});

describe('a forward index with rows replaced', () => {
  const row = (...terms: number[]) => {
    // The layout of document-analysis.ts: the bounds of six fields and the attribute words, then the entries (all in the title).
    const bounds = 8;
    return [bounds, bounds + terms.length, ...Array(6).fill(bounds + terms.length), ...terms];
  };
  const whole = (rows: number[][]): ForwardIndex => {
    const starts = new Int32Array(rows.length + 1);
    rows.forEach((r, i) => (starts[i + 1] = starts[i]! + r.length));
    return { size: rows.length, starts, data: Int32Array.from(rows.flat()) };
  };
  const read = (index: ForwardIndex) => Array.from({ length: index.size }, (_, i) => Array.from(index.data.subarray(index.starts[i]!, index.starts[i]! + rowLength(index.data, index.starts[i]!))));

  it('reads every row as replaced, leaves the index before as it was, and branches safely from an index that is not the last', () => {
    const a = whole([row(1, 2), row(3), row(4, 5, 6)]);
    const b = withRowsReplaced(a, new Map([[1, row(7, 8, 9)]]));
    expect(read(b)).toEqual([row(1, 2), row(7, 8, 9), row(4, 5, 6)]);
    const c = withRowsReplaced(b, new Map([[0, row(10)], [2, row(11)]]));
    expect(read(c)).toEqual([row(10), row(7, 8, 9), row(11)]);
    expect(c.data.buffer).toBe(b.data.buffer); // appended in the same arena
    const d = withRowsReplaced(b, new Map([[2, row(12)]])); // b is no longer the arena's last
    expect(d.data.buffer).not.toBe(b.data.buffer);
    expect(read(d)).toEqual([row(1, 2), row(7, 8, 9), row(12)]);
    expect(read(a)).toEqual([row(1, 2), row(3), row(4, 5, 6)]);
    expect(read(b)).toEqual([row(1, 2), row(7, 8, 9), row(4, 5, 6)]);
    expect(read(c)).toEqual([row(10), row(7, 8, 9), row(11)]);
    for (const index of [b, c, d]) expect(index.starts[index.size]).toBe(index.data.length);
  });
});
