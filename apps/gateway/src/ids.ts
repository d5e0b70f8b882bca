import { randomBase62 } from './auth/api-key.js';

/** An unguessable id with a type prefix: `cs_…`, `ord_…`, `evt_…` (24 base62 characters ≈ 143 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(24)}`;
}
