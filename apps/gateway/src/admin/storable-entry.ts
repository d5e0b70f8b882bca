/**
 * An audit entry as PostgreSQL can store it, whatever the request carried: a NUL (U+0000), which a
 * `text` column refuses, becomes the visible escape `\u0000`, an unpaired UTF-16 surrogate becomes
 * its `\uD800` escape (it has no UTF-8 form), and a value longer than MAX_CHARS is cut, marked `…`.
 * What the request said stays readable, and the write never fails because of it.
 *
 *   storableEntry({ ...entry, target: 'a\u0000b' }).target // 'a\\u0000b'
 */
import { escapeUnstorable } from '../http/storable-text.js';
import type { AuditRecord } from './audit-store.js';

const MAX_CHARS = 2_000;

export function storableText(value: string): string {
  const escaped = escapeUnstorable(value);
  return escaped.length > MAX_CHARS ? `${escaped.slice(0, MAX_CHARS)}…` : escaped;
}

const optional = (value: string | null): string | null => (value === null ? null : storableText(value));

export function storableEntry(entry: AuditRecord): AuditRecord {
  return {
    ...entry,
    operation: storableText(entry.operation),
    method: storableText(entry.method),
    path: storableText(entry.path),
    target: optional(entry.target),
    merchantId: optional(entry.merchantId),
    detail: optional(entry.detail),
    requestId: storableText(entry.requestId),
  };
}
