import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased random base62 text of the given length. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** An unguessable id with a type prefix: `cs_…`, `ord_…`, `evt_…` (24 base62 characters ≈ 143 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(24)}`;
}
