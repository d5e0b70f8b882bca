/**
 * A client of an agent's Feed API (`openapi.feed.yaml`, ACP 2026-04-17): `POST /feeds` and
 * `PATCH /feeds/{id}/products`, with `Authorization: Bearer`, `API-Version: 2026-04-17` and an
 * `Idempotency-Key` kept across the retries of one request.
 *
 * The target is guarded as webhook endpoints are (kernel/outbound/safe-target.ts): before every
 * attempt its host is resolved and checked — unless private targets are allowed, a loopback,
 * private, link-local… address is refused — and the request goes to that checked address only
 * (feed-http.ts), so the bearer token never reaches an address the guard did not pass. A URL
 * with credentials (`user:pass@`) is refused when the client is made, in words that do not
 * repeat them: the Feed API authenticates with the token, and a URL is printed and stored.
 *
 * Only what may succeed later is retried: 429, 5xx, and no answer for a transient reason (a
 * refused or reset connection, a timeout, a DNS server that did not answer) — after
 * `Retry-After` when the target sends one (seconds or an HTTP date), else with exponential
 * backoff and jitter. A refused target, any other answer (a 4xx, a 3xx: redirects are not
 * followed), a TLS or certificate error, a host that does not exist fail at once.
 */
import { randomUUID } from 'node:crypto';
import { DeliveryError, UnsafeTargetError } from '../../kernel/outbound/delivery-errors.js';
import { vetTarget, type Resolver, type TargetPolicy } from '../../kernel/outbound/safe-target.js';
import { NoAnswerError, sendFeedRequest } from './feed-http.js';

export const FEED_API_VERSION = '2026-04-17';

export interface FeedApiOptions {
  /** The Feed API's base URL; `/feeds` is appended. */
  baseUrl: string;
  token: string;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: the target may be (or resolve to) a loopback, private, link-local… address. */
  allowPrivateTargets: boolean;
  /** Resolves the target's host (the system's DNS by default). */
  resolve?: Resolver;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  /** Backoff before the n-th retry without Retry-After: base × 2^(n-1), ±20 %. */
  backoffMs?: number;
  /** The longest wait honoured from a Retry-After (longer ones are cut to it). */
  maxRetryAfterMs?: number;
  /** Longest wait for one whole answer. */
  timeoutMs?: number;
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

/**
 * Nothing was sent: the URL is not one to send to — not http(s), with credentials, or (private
 * targets not allowed) its host is or resolves to a non-public address. The message is a
 * predicate for the URL ("host 127.0.0.1 is a loopback address; …") and never repeats it.
 */
export class FeedTargetError extends FeedApiError {
  override name = 'FeedTargetError';
  constructor(
    message: string,
    /** `address`: the SSRF guard refused the host's address (WEBHOOK_ALLOW_PRIVATE_TARGETS would allow it). */
    readonly refused: 'url' | 'credentials' | 'address',
  ) {
    super(message, null);
  }
}

/** What a refusal by the guard says after the reason. */
export const FEEDS_PUBLIC_ONLY = 'feeds are only pushed to public addresses';

/** Parses a Feed API URL: absolute http(s), no credentials. Throws FeedTargetError, whose message does not echo the URL. */
export function parseFeedApiUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FeedTargetError('is not an absolute http(s) URL', 'url');
  }
  if (url.username || url.password) throw new FeedTargetError('must not carry credentials (user:password@); the Feed API is given a bearer token', 'credentials');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FeedTargetError(`must use http or https, not ${url.protocol.replace(/:$/, '')}`, 'url');
  return url;
}

/** Milliseconds a Retry-After asks for; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, /.test(text)) return undefined; // an HTTP date (IMF-fixdate) or nothing
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const retryable = (status: number) => status === 429 || status >= 500;

/** A DNS failure that may pass: no answer in time, or a server failure (EAI_AGAIN); a name that does not exist is final. */
function transientDns(error: DeliveryError): boolean {
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  return code !== 'ENOTFOUND' && code !== 'ENODATA';
}

/** The retry loop's view of one failed attempt. */
class Attempt extends Error {
  constructor(
    readonly reason: string,
    readonly waitMs?: number,
  ) {
    super(reason);
  }
}

export class FeedApiClient {
  private readonly base: string;
  private readonly policy: TargetPolicy;
  private readonly sleep: (ms: number) => Promise<void>;

  /** Throws FeedTargetError for a URL that is not absolute http(s) or carries credentials. */
  constructor(private readonly options: FeedApiOptions) {
    parseFeedApiUrl(options.baseUrl);
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.policy = { allowPrivate: options.allowPrivateTargets, publicOnly: FEEDS_PUBLIC_ONLY, ...(options.resolve ? { resolve: options.resolve } : {}) };
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Checks the target as a request would, sending nothing: throws FeedTargetError when the guard
   * refuses it. A DNS failure is left to the requests (which retry a transient one).
   */
  async checkTarget(): Promise<void> {
    await this.vet(`${this.base}/feeds`).catch((error: unknown) => {
      if (error instanceof DeliveryError) return;
      throw error;
    });
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

  /** The guard: UnsafeTargetError becomes FeedTargetError; DeliveryError (DNS) passes through. */
  private async vet(url: string) {
    try {
      return await vetTarget(url, this.policy);
    } catch (error) {
      // The URL itself passed parseFeedApiUrl when the client was made: what is refused here is the address.
      if (error instanceof UnsafeTargetError) throw new FeedTargetError(error.message, 'address');
      throw error;
    }
  }

  private async request(method: string, path: string, json: unknown, expected: number): Promise<unknown> {
    const maxAttempts = this.options.maxAttempts ?? 6;
    const idempotencyKey = randomUUID();
    const payload = JSON.stringify(json);
    for (let attempt = 1; ; attempt++) {
      let failed: Attempt;
      try {
        return await this.attempt(method, path, payload, expected, idempotencyKey);
      } catch (error) {
        if (!(error instanceof Attempt)) throw error;
        failed = error;
      }
      if (attempt >= maxAttempts) throw new FeedApiError(`${method} ${path} failed after ${attempt} attempts: ${failed.reason}`, null);
      const backoff = (this.options.backoffMs ?? 1000) * 2 ** (attempt - 1) * (0.8 + 0.4 * Math.random());
      const wait = Math.min(failed.waitMs ?? backoff, this.options.maxRetryAfterMs ?? 300_000);
      this.options.onRetry?.({ attempt, waitMs: Math.round(wait), reason: failed.reason });
      await this.sleep(wait);
    }
  }

  /** One attempt: its result, a FeedApiError (final), or an Attempt (worth another). */
  private async attempt(method: string, path: string, payload: string, expected: number, idempotencyKey: string): Promise<unknown> {
    let target;
    try {
      target = await this.vet(`${this.base}${path}`);
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error;
      if (transientDns(error)) throw new Attempt(error.reason);
      throw new FeedApiError(`${method} ${path} not sent: ${error.reason}`, null);
    }
    let response;
    try {
      response = await sendFeedRequest({
        target,
        method,
        headers: {
          Authorization: `Bearer ${this.options.token}`,
          'API-Version': FEED_API_VERSION,
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Idempotency-Key': idempotencyKey,
        },
        body: payload,
        timeoutMs: this.options.timeoutMs ?? 30_000,
      });
    } catch (error) {
      if (!(error instanceof NoAnswerError)) throw error;
      if (error.transient) throw new Attempt(error.reason);
      throw new FeedApiError(`${method} ${path} failed: ${error.reason}`, null);
    }
    const { status, text } = response;
    if (status >= 200 && status < 300) {
      if (status !== expected && !(expected === 201 && status === 200)) throw new FeedApiError(`${method} ${path} answered ${status}, expected ${expected}`, status);
      try {
        return text ? JSON.parse(text) : undefined;
      } catch {
        throw new FeedApiError(`${method} ${path} answered with a body that is not JSON`, null);
      }
    }
    const error = describeError(text);
    const reason = `${status}${error.message ? ` ${error.message}` : ''}`;
    if (status >= 300 && status < 400) throw new FeedApiError(`${method} ${path} refused: ${reason} (a redirect, not followed)`, status, error.code);
    if (!retryable(status)) throw new FeedApiError(`${method} ${path} refused: ${reason}`, status, error.code);
    throw new Attempt(reason, retryAfterMs(headerOf(response.headers['retry-after'])));
  }
}

const headerOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

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
