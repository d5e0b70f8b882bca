/**
 * An embedder that calls an OpenAI-compatible embeddings endpoint (OpenAI, Azure OpenAI,
 * Ollama's /v1/embeddings, vLLM, LM Studio, text-embeddings-inference, …):
 * POST {url} {"model", "input": [texts], "dimensions"?} → {"data": [{"index", "embedding"}]}.
 * Texts go in batches; vectors come back unit length. Requests go through the gateway's outbound
 * client (kernel/outbound/outbound-client.ts), with one deadline per attempt, a bounded answer and
 * no redirect followed; the endpoint is the operator's own (often a model server on this host or
 * its network), so private addresses are allowed. A batch answered 429 or 5xx (or not at all) is
 * sent again with backoff, honouring `Retry-After` up to the longest wait; what still fails is an
 * EmbedderError, which imports and reindexing report as products left without vectors.
 */
import { EmbedderError, normalize, type Embedder } from '../../embedder.js';
import { DeliveryError, UnsafeTargetError } from '../../../kernel/outbound/delivery-errors.js';
import { exponentialBackoff, OutboundClient, retryableStatus, type OutboundResponse } from '../../../kernel/outbound/outbound-client.js';

export interface EmbedderRetryOptions {
  /** Further attempts after the first (default 4). */
  retries?: number;
  /** The first backoff (default 500 ms), doubled each attempt, with jitter (half to all of it). */
  minDelayMs?: number;
  /** No single wait is longer (default 30 s); a longer Retry-After is cut to it. */
  maxDelayMs?: number;
}

export interface OpenAiEmbedderOptions {
  url: string;
  apiKey?: string | undefined;
  model?: string | undefined;
  /** Expected vector length; sent as `dimensions` (models that support shortening honour it). */
  dimensions: number;
  batchSize?: number;
  timeoutMs?: number;
  /** Retries of a batch answered 429/5xx or not at all (default: 4, from 500 ms, Retry-After honoured up to 30 s). */
  retry?: EmbedderRetryOptions;
}

/** The largest answer read: a batch of 128 vectors of 3,072 numbers is some 8 MB of JSON. */
export const MAX_EMBEDDINGS_RESPONSE_BYTES = 64 * 1024 * 1024;

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[];
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  /** The operator's endpoint: private addresses allowed (a model server on this host or its network). */
  private readonly client = new OutboundClient({ allowPrivate: true });

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.dimensions = options.dimensions;
    this.batchSize = options.batchSize ?? 128;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.id = `openai:${options.model ?? 'default'}@${new URL(options.url).host}:${options.dimensions}d`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      out.push(...(await this.batch(texts.slice(start, start + this.batchSize))));
    }
    return out;
  }

  /** One batch's successful answer, after as many attempts as the retry options allow. */
  private async post(body: unknown): Promise<OutboundResponse> {
    const { url, apiKey } = this.options;
    const { retries = 4, minDelayMs = 500, maxDelayMs = 30_000 } = this.options.retry ?? {};
    let response;
    try {
      response = await this.client.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify(body),
        timeoutMs: this.timeoutMs,
        maxResponseBytes: MAX_EMBEDDINGS_RESPONSE_BYTES,
        retry: {
          attempts: retries + 1,
          backoffMs: exponentialBackoff({ firstMs: minDelayMs, maxMs: maxDelayMs }),
          maxWaitMs: maxDelayMs,
          retryFailure: () => true, // no answer at all: the endpoint may be starting
        },
      });
    } catch (error) {
      if (!(error instanceof DeliveryError || error instanceof UnsafeTargetError)) throw error;
      const attempts = error instanceof DeliveryError && error.attempts > 1 ? ` (after ${error.attempts} attempts)` : '';
      throw new EmbedderError(`embedding endpoint ${url} unreachable: ${error instanceof DeliveryError ? error.reason : error.message}${attempts}`);
    }
    const { status, attempts } = response;
    if (status >= 200 && status < 300) return response;
    const detail = response.body.toString('utf8').slice(0, 200);
    const failure = `embedding endpoint ${url} answered ${status}${detail ? `: ${detail}` : ''}`;
    throw new EmbedderError(attempts > 1 && retryableStatus(status) ? `${failure} (after ${attempts} attempts)` : failure);
  }

  private async batch(texts: readonly string[]): Promise<Float32Array[]> {
    const { url, model } = this.options;
    const body = { ...(model ? { model } : {}), input: texts.map((t) => t || ' '), dimensions: this.dimensions };
    const response = await this.post(body);
    let json: EmbeddingsResponse;
    try {
      json = JSON.parse(response.body.toString('utf8')) as EmbeddingsResponse;
    } catch {
      json = {};
    }
    const data = json?.data;
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
