/**
 * A client of an agent's Feed API (`openapi.feed.yaml`, ACP 2026-04-17): `POST /feeds` and
 * `PATCH /feeds/{id}/products`, with `Authorization: Bearer`, `API-Version: 2026-04-17` and an
 * `Idempotency-Key` kept across the retries of one request.
 *
 * Requests go through the gateway's outbound client (kernel/outbound/outbound-client.ts), guarded
 * as webhook endpoints are: before every attempt the target's host is resolved and checked —
 * unless private targets are allowed, a loopback, private, link-local… address is refused — and
 * the request goes to that checked address only, so the bearer token never reaches an address the
 * guard did not pass. A URL with credentials (`user:pass@`) is refused when the client is made, in
 * words that do not repeat them: the Feed API authenticates with the token, and a URL is printed
 * and stored. One deadline covers each attempt, and at most 1 MiB of an answer is read.
 *
 * Only what may succeed later is retried: 429, 5xx, and no answer for a transient reason (a
 * refused or reset connection, a timeout, a DNS server that did not answer) — after
 * `Retry-After` when the target sends one (seconds or an HTTP date), else with exponential
 * backoff and jitter. A refused target, any other answer (a 4xx, a 3xx: redirects are not
 * followed), a TLS or certificate error, a malformed or oversized answer, a host that does not
 * exist fail at once.
 */
import { randomUUID } from 'node:crypto';
import { DeliveryError, UnsafeTargetError } from '../../kernel/outbound/delivery-errors.js';
import { describeDuration, OutboundClient, retryableStatus, type OutboundResponse } from '../../kernel/outbound/outbound-client.js';
import type { Resolver } from '../../kernel/outbound/safe-target.js';

export const FEED_API_VERSION = '2026-04-17';
export const MAX_FEED_RESPONSE_BYTES = 1024 * 1024;

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
  /** Longest wait for one attempt: the DNS answer (10 s at most) and the whole answer. */
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

export class FeedApiClient {
  private readonly base: string;
  private readonly client: OutboundClient;

  /** Throws FeedTargetError for a URL that is not absolute http(s) or carries credentials. */
  constructor(private readonly options: FeedApiOptions) {
    parseFeedApiUrl(options.baseUrl);
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.client = new OutboundClient({
      allowPrivate: options.allowPrivateTargets,
      publicOnly: FEEDS_PUBLIC_ONLY,
      dnsTimeoutMs: 10_000,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  }

  /**
   * Checks the target as a request would, sending nothing: throws FeedTargetError when the guard
   * refuses it. A DNS failure is left to the requests (which retry a transient one).
   */
  async checkTarget(): Promise<void> {
    await this.guarded(this.client.vet(`${this.base}/feeds`)).catch((error: unknown) => {
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

  /** The guard's refusal becomes FeedTargetError; DeliveryError passes through. */
  private async guarded<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      // The URL itself passed parseFeedApiUrl when the client was made: what is refused here is the address.
      if (error instanceof UnsafeTargetError) throw new FeedTargetError(error.message, 'address');
      throw error;
    }
  }

  /** A failure without an answer in the feed's words. */
  private reasonOf(error: DeliveryError): string {
    return error.kind === 'timeout' ? `no answer within ${describeDuration(this.options.timeoutMs ?? 30_000)}` : error.reason;
  }

  private async request(method: string, path: string, json: unknown, expected: number): Promise<unknown> {
    const backoffMs = this.options.backoffMs ?? 1000;
    let response: OutboundResponse & { attempts: number };
    try {
      response = await this.guarded(
        this.client.request(`${this.base}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${this.options.token}`,
            'API-Version': FEED_API_VERSION,
            'Content-Type': 'application/json',
            Accept: 'application/json',
            'Idempotency-Key': randomUUID(), // the same on every attempt
          },
          body: JSON.stringify(json),
          timeoutMs: this.options.timeoutMs ?? 30_000,
          maxResponseBytes: MAX_FEED_RESPONSE_BYTES,
          retry: {
            attempts: this.options.maxAttempts ?? 6,
            backoffMs: (retry) => backoffMs * 2 ** (retry - 1) * (0.8 + 0.4 * Math.random()),
            maxWaitMs: this.options.maxRetryAfterMs ?? 300_000,
            onRetry: ({ attempt, waitMs, response: answer, error }) =>
              this.options.onRetry?.({ attempt, waitMs, reason: answer ? describeAnswer(answer).reason : this.reasonOf(error!) }),
            ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error;
      // A transient failure ends the retries only when the attempts are used up.
      if (error.transient) throw new FeedApiError(`${method} ${path} failed after ${error.attempts} attempts: ${this.reasonOf(error)}`, null);
      throw new FeedApiError(`${method} ${path} ${error.kind === 'dns' ? 'not sent' : 'failed'}: ${this.reasonOf(error)}`, null);
    }
    const { status } = response;
    const text = response.body.toString('utf8');
    if (status >= 200 && status < 300) {
      if (status !== expected && !(expected === 201 && status === 200)) throw new FeedApiError(`${method} ${path} answered ${status}, expected ${expected}`, status);
      try {
        return text ? JSON.parse(text) : undefined;
      } catch {
        throw new FeedApiError(`${method} ${path} answered with a body that is not JSON`, null);
      }
    }
    const { reason, code } = describeAnswer(response);
    if (status >= 300 && status < 400) throw new FeedApiError(`${method} ${path} refused: ${reason} (a redirect, not followed)`, status, code);
    if (!retryableStatus(status)) throw new FeedApiError(`${method} ${path} refused: ${reason}`, status, code);
    throw new FeedApiError(`${method} ${path} failed after ${response.attempts} attempts: ${reason}`, null);
  }
}

/** An answer that is not a success, in a few words: its status, and its error's message and code. */
function describeAnswer(response: OutboundResponse): { reason: string; code?: string } {
  const error = describeError(response.body.toString('utf8'));
  return { reason: `${response.status}${error.message ? ` ${error.message}` : ''}`, ...(error.code ? { code: error.code } : {}) };
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
