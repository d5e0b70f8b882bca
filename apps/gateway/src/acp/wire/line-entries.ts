/**
 * The agent's cart entries as the domain's lines. An entry names an item and a quantity (1 when
 * absent); entries of the same id add up to one line, in the order the ids first appear — so an
 * agent that repeats an id once per unit still buys what it meant. `items` is the RFC's name for
 * `line_items` (request-schema.ts): one or the other, and errors name the one the agent sent.
 */
import { MAX_QUANTITY } from '../../checkout/line-resolver.js';
import { AcpError } from '../acp-error.js';
import type { AcpItem } from './acp-types.js';

export type LinesField = 'line_items' | 'items';

export interface LineEntries {
  field: LinesField;
  entries: readonly AcpItem[];
}

/** One domain line per distinct id: its units over all entries, and the request index of its first entry. */
export interface GroupedLines {
  field: LinesField;
  ids: string[];
  quantities: number[];
  firstIndex: number[];
}

/** The request's entries under whichever name it used; undefined when it sent neither. */
export function lineEntries(request: { line_items?: AcpItem[] | undefined; items?: AcpItem[] | undefined }): LineEntries | undefined {
  if (request.items !== undefined && request.line_items !== undefined) {
    throw new AcpError(400, 'invalid_request', 'invalid', "$.items is the RFC's name for $.line_items: send one of them, not both", '$.items');
  }
  if (request.items !== undefined) return { field: 'items', entries: request.items };
  if (request.line_items !== undefined) return { field: 'line_items', entries: request.line_items };
  return undefined;
}

export function groupEntries({ field, entries }: LineEntries): GroupedLines {
  const at = new Map<string, number>();
  const grouped: GroupedLines = { field, ids: [], quantities: [], firstIndex: [] };
  entries.forEach((entry, index) => {
    const units = entry.quantity ?? 1; // a whole number from 1 to MAX_QUANTITY: the schema checked it
    const line = at.get(entry.id);
    if (line === undefined) {
      at.set(entry.id, grouped.ids.length);
      grouped.ids.push(entry.id);
      grouped.quantities.push(units);
      grouped.firstIndex.push(index);
      return;
    }
    const total = grouped.quantities[line]! + units;
    if (total > MAX_QUANTITY) {
      const param = `$.${field}[${index}]${entry.quantity !== undefined ? '.quantity' : ''}`;
      throw new AcpError(400, 'invalid_request', 'invalid', `${param} brings item ${JSON.stringify(entry.id)} to ${total} units over the entries of ${field}; at most ${MAX_QUANTITY} of one item`, param);
    }
    grouped.quantities[line] = total;
  });
  return grouped;
}
