/**
 * The catalog's answers remembered by question, in one bounded LRU (lru-cache): whole search
 * answers, each valid for the index snapshot it came from, and listing pages, valid while they
 * hold the very same product objects. An answer is kept with what it was made from (its basis),
 * and one asked for from another basis is dropped, not answered. Shoppers and agents repeat
 * popular queries and page through the same listings; holding more answers costs every other
 * query (more to collect: 1,024 search answers with their items' bytes made p50 9 → 13 ms at
 * 50,000 products), so the memo is small.
 */
import { LRUCache } from 'lru-cache';

/** 256 search answers' worth and 1,024 listing pages' worth, as before they shared one memo. */
export const REMEMBERED_ANSWERS = 1_280;

interface Remembered {
  basis: object;
  answer: object;
}

export class AnswerMemo {
  private readonly lru: LRUCache<string, Remembered>;

  constructor(max = REMEMBERED_ANSWERS) {
    this.lru = new LRUCache({ max });
  }

  /** The answer to `question` when its basis `isCurrent`; a stale one is forgotten. */
  recall<T extends object>(question: string, isCurrent: (basis: object) => boolean): T | undefined {
    const entry = this.lru.get(question);
    if (entry === undefined) return undefined;
    if (isCurrent(entry.basis)) return entry.answer as T;
    this.lru.delete(question);
    return undefined;
  }

  remember(question: string, basis: object, answer: object): void {
    this.lru.set(question, { basis, answer });
  }

  get size(): number {
    return this.lru.size;
  }
}
