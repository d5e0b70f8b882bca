/**
 * Admission for the catalog's memories (answer-memo.ts, the decoded products of
 * read-model/merchant-catalog.ts): a thing is kept from the second time it is asked for within the
 * doorkeeper's window, never the first. A stream of distinct queries (most of a large catalog's
 * traffic) then leaves nothing behind: at 200,000 products every query's answer and decoded
 * products outlived the young generation, and the scavenges that copied them made the p99 of
 * `?q=` (bench:http:memory). Popular queries and products, asked again and again, are kept as
 * before. The window is the last `capacity` distinct keys, forgotten all at once when full
 * (TinyLFU's doorkeeper, without its sketch).
 */
export class Doorkeeper {
  private readonly seen = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** Whether `key` was asked for before within the window; it is remembered as asked either way. */
  askedBefore(key: string): boolean {
    if (this.seen.has(key)) return true;
    if (this.seen.size >= this.capacity) this.seen.clear();
    this.seen.add(key);
    return false;
  }
}
