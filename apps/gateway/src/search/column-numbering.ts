/** Columns of repeated values (categories, vendors) as numbers: each distinct value, compared folded, numbered once. */
import type { ColumnFields } from './columns-state.js';
import { foldCase } from './filter.js';

/** A column of distinct values (compared folded), numbered in order of first appearance. */
export function numbering(rows: readonly ColumnFields[], value: (row: ColumnFields) => string): { of: Int32Array; names: string[]; keys: string[] } {
  const numbers = new Map<string, number>();
  const names: string[] = [];
  const of = new Int32Array(rows.length);
  rows.forEach((row, i) => {
    const shown = value(row);
    const key = foldCase(shown);
    let number = numbers.get(key);
    if (number === undefined) {
      numbers.set(key, (number = numbers.size));
      names.push(shown);
    }
    of[i] = number;
  });
  return { of, names, keys: [...numbers.keys()] };
}

/** A numbered column (see numbering) with the changed rows' values numbered: new ones after the others. */
export function renumbered(
  of: Int32Array,
  names: readonly string[],
  keys: readonly string[],
  changes: ReadonlyMap<number, ColumnFields>,
  value: (fields: ColumnFields) => string,
): { of: Int32Array; names: readonly string[] } {
  const out = of.slice();
  let grown: string[] | undefined;
  let numbers: Map<string, number> | undefined;
  for (const [row, fields] of changes) {
    const shown = value(fields);
    const key = foldCase(shown);
    numbers ??= new Map(keys.map((k, number) => [k, number]));
    let number = numbers.get(key);
    if (number === undefined) {
      grown ??= [...names];
      numbers.set(key, (number = grown.length));
      grown.push(shown);
    }
    out[row] = number;
  }
  return { of: out, names: grown ?? names };
}
