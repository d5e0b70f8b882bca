/**
 * Embeds a shopper's query for hybrid search, and never lets the embedder fail a search:
 * on an error or after `timeoutMs` it answers undefined (the engine then ranks by keywords,
 * as Meilisearch does) and logs a warning. Recent queries are cached. What reaches the embedder
 * is bounded as the keyword search is (query/bound-query.ts: the first 10 searched words, each of
 * at most 64 characters): the vector work of a query — a typo search per unknown word in the local
 * embedder, tokens billed by an embedding endpoint — does not grow with a pasted wall of text.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Embedder } from './embedder.js';
import { boundQuery } from './query/bound-query.js';

export interface QueryEmbedderOptions {
  timeoutMs?: number;
  cacheSize?: number;
}

export class QueryEmbedder {
  private readonly cache: LRUCache<string, Float32Array>;
  private readonly timeoutMs: number;

  constructor(
    readonly embedder: Embedder,
    private readonly logger: Logger,
    options: QueryEmbedderOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.cache = new LRUCache({ max: options.cacheSize ?? 1_000 });
  }

  async embed(text: string): Promise<Float32Array | undefined> {
    const query = boundQuery(text);
    const key = query.trim().toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      const embedding = this.embedder.embedQuery ? this.embedder.embedQuery(query).then((v) => [v]) : this.embedder.embed([query]);
      const [vector] = await Promise.race([embedding, timeout]);
      if (!vector || vector.length !== this.embedder.dimensions) throw new Error('the embedder returned no vector of the expected length');
      this.cache.set(key, vector);
      return vector;
    } catch (error) {
      this.logger.warn({ err: error, embedder: this.embedder.id }, 'query embedding failed; searching by keywords only');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
