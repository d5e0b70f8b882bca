/**
 * Streams the records of a catalog file, NDJSON or one JSON array, with the
 * line each record starts on. Memory stays bounded by the largest record,
 * not the file.
 */
import { createReadStream } from 'node:fs';

export interface RawRecord {
  line: number;
  /** The parsed value, or the JSON syntax error's message. */
  value?: unknown;
  error?: string;
}

function parse(text: string, line: number): RawRecord {
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    return { line, error: `invalid JSON (${(error as Error).message})` };
  }
}

export async function* readRecords(path: string): AsyncGenerator<RawRecord> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  let mode: 'unknown' | 'ndjson' | 'array' = 'unknown';
  let line = 1;
  // NDJSON state
  let pending = '';
  let pendingLine = 1;
  // JSON array state
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = '';
  let elementLine = 0;
  let arrayClosed = false;

  for await (const chunk of stream as AsyncIterable<string>) {
    let start = 0;
    if (mode === 'unknown') {
      const first = chunk.search(/\S/);
      if (first === -1) {
        line += (chunk.match(/\n/g) ?? []).length;
        continue;
      }
      mode = chunk[first] === '[' ? 'array' : 'ndjson';
      if (mode === 'array') {
        line += (chunk.slice(0, first).match(/\n/g) ?? []).length;
        start = first + 1;
      }
    }
    if (mode === 'ndjson') {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) !== -1) {
        const text = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (text) yield parse(text, pendingLine);
        pendingLine++;
      }
      continue;
    }
    for (let i = start; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === '\n') line++;
      if (arrayClosed) {
        if (!/\s/.test(c)) {
          yield { line, error: 'unexpected text after the closing ] of the array' };
          return;
        }
        continue;
      }
      if (depth === 0 && !inString) {
        if (c === ',' || /\s/.test(c)) {
          if (c === ',' && element.trim()) {
            yield parse(element, elementLine);
            element = '';
          }
          continue;
        }
        if (c === ']') {
          if (element.trim()) yield parse(element, elementLine);
          element = '';
          arrayClosed = true;
          continue;
        }
        if (!element) elementLine = line;
      }
      element += c;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
    }
  }
  if (mode === 'ndjson' && pending.trim()) yield parse(pending.trim(), pendingLine);
  if (mode === 'array' && !arrayClosed) yield { line, error: 'the JSON array is not closed (missing ])' };
}
