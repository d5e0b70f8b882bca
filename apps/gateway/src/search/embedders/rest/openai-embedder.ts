/**
 * An embedder that calls an OpenAI-compatible embeddings endpoint (OpenAI, Azure OpenAI,
 * Ollama's /v1/embeddings, vLLM, LM Studio, text-embeddings-inference, …):
 * POST {url} {"model", "input": [texts], "dimensions"?} → {"data": [{"index", "embedding"}]}.
 * Texts go in batches; vectors come back unit length. A batch answered 429 or 5xx (or not at
 * all) is sent again with backoff, honouring `Retry-After` (see RetryPolicy); what still fails
 * is an EmbedderError, which imports and reindexing report as products left without vectors.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { EmbedderError, normalize, type Embedder } from '../../embedder.js';
import { RetryPolicy, type RetryPolicyOptions } from './retry-policy.js';

export interface OpenAiEmbedderOptions {
  url: string;
  apiKey?: string | undefined;
  model?: string | undefined;
  /** Expected vector length; sent as `dimensions` (models that support shortening honour it). */
  dimensions: number;
  batchSize?: number;
  timeoutMs?: number;
  /** Retries of a batch answered 429/5xx or not at all (default: 4, from 500 ms, Retry-After honoured up to 30 s). */
  retry?: RetryPolicyOptions;
  fetch?: typeof fetch;
}

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[];
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;
  private readonly retry: RetryPolicy;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.retry = new RetryPolicy(options.retry);
    this.dimensions = options.dimensions;
    this.batchSize = options.batchSize ?? 128;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetch = options.fetch ?? fetch;
    this.id = `openai:${options.model ?? 'default'}@${new URL(options.url).host}:${options.dimensions}d`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      out.push(...(await this.batch(texts.slice(start, start + this.batchSize))));
    }
    return out;
  }

  /** One batch's answer, after as many attempts as the retry policy allows. */
  private async post(body: unknown): Promise<Response> {
    const { url, apiKey } = this.options;
    for (let attempt = 0; ; attempt++) {
      let response: Response | undefined;
      let failure: string;
      try {
        response = await this.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (response.ok) return response;
        const detail = (await response.text().catch(() => '')).slice(0, 200);
        failure = `embedding endpoint ${url} answered ${response.status}${detail ? `: ${detail}` : ''}`;
      } catch (error) {
        failure = `embedding endpoint ${url} unreachable: ${(error as Error).message}`;
      }
      const wait = this.retry.delayFor(attempt, response?.status, response?.headers.get('retry-after'));
      if (wait === undefined) {
        throw new EmbedderError(attempt > 0 && this.retry.retryable(response?.status) ? `${failure} (after ${attempt + 1} attempts)` : failure);
      }
      await sleep(wait);
    }
  }

  private async batch(texts: readonly string[]): Promise<Float32Array[]> {
    const { url, model } = this.options;
    const body = { ...(model ? { model } : {}), input: texts.map((t) => t || ' '), dimensions: this.dimensions };
    const response = await this.post(body);
    const json = (await response.json().catch(() => ({}))) as EmbeddingsResponse;
    const data = json.data;
    if (!Array.isArray(data) || data.length !== texts.length) {
      throw new EmbedderError(`embedding endpoint ${url} returned ${Array.isArray(data) ? data.length : 'no'} embeddings for ${texts.length} texts`);
    }
    const vectors: Float32Array[] = new Array<Float32Array>(texts.length);
    data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      const embedding = item.embedding;
      if (!Array.isArray(embedding) || embedding.length !== this.dimensions || !embedding.every((x) => typeof x === 'number')) {
        throw new EmbedderError(`embedding endpoint ${url} returned a vector that is not ${this.dimensions} numbers`);
      }
      vectors[index] = normalize(Float32Array.from(embedding as number[]));
    });
    if (vectors.some((v) => v === undefined)) throw new EmbedderError(`embedding endpoint ${url} returned duplicate indexes`);
    return vectors;
  }
}
