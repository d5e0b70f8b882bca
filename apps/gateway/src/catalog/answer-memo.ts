/**
 * The catalog's answers remembered by question, in one bounded LRU (lru-cache): whole search
 * answers, each valid for the index snapshot it came from, and listing pages, valid while they
 * hold the very same product objects. An answer is kept with what it was made from (its basis),
 * and one asked for from another basis is dropped, not answered. Shoppers and agents repeat
 * popular queries and page through the same listings; holding more answers costs every other
 * query (more to collect: 1,024 search answers with their items' bytes made p50 9 → 13 ms at
 * 50,000 products), so the memo is small, and an answer is kept only from the second time its
 * question is asked (doorkeeper.ts): a question asked once is never held.
 */
import { LRUCache } from 'lru-cache';
import { Doorkeeper } from './doorkeeper.js';

/** 256 search answers' worth and 1,024 listing pages' worth, as before they shared one memo. */
export const REMEMBERED_ANSWERS = 1_280;

interface Remembered {
  basis: object;
  answer: object;
}

export class AnswerMemo {
  private readonly lru: LRUCache<string, Remembered>;
  private readonly doorkeeper: Doorkeeper;

  constructor(max = REMEMBERED_ANSWERS) {
    this.lru = new LRUCache({ max });
    this.doorkeeper = new Doorkeeper(4 * max);
  }

  /** The answer to `question` when its basis `isCurrent`; a stale one is forgotten. */
  recall<T extends object>(question: string, isCurrent: (basis: object) => boolean): T | undefined {
    const entry = this.lru.get(question);
    if (entry === undefined) return undefined;
    if (isCurrent(entry.basis)) return entry.answer as T;
    this.lru.delete(question);
    return undefined;
  }

  /** Keeps the answer to a question asked before (within the doorkeeper's window) or held already. */
  remember(question: string, basis: object, answer: object): void {
    if (!this.lru.has(question) && !this.doorkeeper.askedBefore(question)) return;
    this.lru.set(question, { basis, answer });
  }

  get size(): number {
    return this.lru.size;
  }
}
