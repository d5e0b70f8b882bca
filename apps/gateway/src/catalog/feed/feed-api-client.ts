/**
 * A client of an agent's Feed API (`openapi.feed.yaml`, ACP 2026-04-17): `POST /feeds` and
 * `PATCH /feeds/{id}/products`, with `Authorization: Bearer`, `API-Version: 2026-04-17` and an
 * `Idempotency-Key` kept across the retries of one request. 429, 5xx and no answer at all are
 * retried — after `Retry-After` when the target sends one (seconds or an HTTP date), else with
 * exponential backoff and jitter; any other answer is final.
 */
import { randomUUID } from 'node:crypto';

export const FEED_API_VERSION = '2026-04-17';

export interface FeedApiOptions {
  /** The Feed API's base URL; `/feeds` is appended. */
  baseUrl: string;
  token: string;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  /** Backoff before the n-th retry without Retry-After: base × 2^(n-1), ±20 %. */
  backoffMs?: number;
  /** The longest wait honoured from a Retry-After (longer ones are cut to it). */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Told about each retry (e.g. to print it). */
  onRetry?: (retry: { attempt: number; waitMs: number; reason: string }) => void;
}

/** The target refused: any answer but 2xx, 429 and 5xx, or retries used up. `status` null when no answer came. */
export class FeedApiError extends Error {
  override name = 'FeedApiError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Milliseconds a Retry-After asks for; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, /.test(text)) return undefined; // an HTTP date (IMF-fixdate) or nothing
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const retryable = (status: number) => status === 429 || status >= 500;

export class FeedApiClient {
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: FeedApiOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** `POST /feeds`: creates the feed; returns its FeedMetadata. */
  async createFeed(targetCountry?: string): Promise<{ id: string; target_country?: string; updated_at?: string }> {
    const body = await this.request('POST', '/feeds', targetCountry ? { target_country: targetCountry } : {}, 201);
    const metadata = body as { id?: unknown };
    if (typeof metadata?.id !== 'string' || !metadata.id) throw new FeedApiError('POST /feeds answered without a feed id', 201);
    return body as { id: string };
  }

  /** `PATCH /feeds/{id}/products`: upserts the products by id. */
  async upsertProducts(feedId: string, products: readonly unknown[]): Promise<void> {
    const body = (await this.request('PATCH', `/feeds/${encodeURIComponent(feedId)}/products`, { products }, 200)) as { accepted?: unknown };
    if (body?.accepted !== true) throw new FeedApiError(`PATCH /feeds/${feedId}/products was not accepted`, 200);
  }

  private async request(method: string, path: string, json: unknown, expected: number): Promise<unknown> {
    const maxAttempts = this.options.maxAttempts ?? 6;
    const idempotencyKey = randomUUID();
    const payload = JSON.stringify(json);
    for (let attempt = 1; ; attempt++) {
      let waitMs: number | undefined;
      let reason: string;
      try {
        const response = await this.fetch(`${this.base}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${this.options.token}`,
            'API-Version': FEED_API_VERSION,
            'Content-Type': 'application/json',
            Accept: 'application/json',
            'Idempotency-Key': idempotencyKey,
          },
          body: payload,
          redirect: 'error',
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
        const text = await response.text();
        if (response.ok) {
          if (response.status !== expected && !(expected === 201 && response.status === 200)) {
            throw new FeedApiError(`${method} ${path} answered ${response.status}, expected ${expected}`, response.status);
          }
          return text ? JSON.parse(text) : undefined;
        }
        const error = describeError(text);
        reason = `${response.status}${error.message ? ` ${error.message}` : ''}`;
        if (!retryable(response.status)) throw new FeedApiError(`${method} ${path} refused: ${reason}`, response.status, error.code);
        waitMs = retryAfterMs(response.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof FeedApiError) throw error;
        if (error instanceof SyntaxError) throw new FeedApiError(`${method} ${path} answered with a body that is not JSON`, null);
        reason = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
      }
      if (attempt >= maxAttempts) throw new FeedApiError(`${method} ${path} failed after ${attempt} attempts: ${reason}`, null);
      const backoff = (this.options.backoffMs ?? 1000) * 2 ** (attempt - 1) * (0.8 + 0.4 * Math.random());
      const wait = Math.min(waitMs ?? backoff, this.options.maxRetryAfterMs ?? 300_000);
      this.options.onRetry?.({ attempt, waitMs: Math.round(wait), reason });
      await this.sleep(wait);
    }
  }
}

/** ACP's flat error `{type, code, message, param}`, as far as the body has one. */
function describeError(text: string): { code?: string; message?: string } {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    return {
      ...(typeof body.code === 'string' ? { code: body.code } : {}),
      ...(typeof body.message === 'string' ? { message: `${body.message}${typeof body.code === 'string' ? ` (${body.code})` : ''}` } : {}),
    };
  } catch {
    return text ? { message: text.slice(0, 200) } : {};
  }
}
