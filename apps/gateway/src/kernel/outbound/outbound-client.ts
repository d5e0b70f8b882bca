/**
 * The gateway's one outbound HTTP client: every request it makes of another server — a webhook
 * delivery (http-delivery.ts), a Feed API push, a platform-profile fetch, an embeddings batch —
 * goes through here. Each attempt is
 *
 * - guarded (safe-target.ts): http(s) only and, unless the caller allows private targets, every
 *   address the host resolves to must be public; the connection goes to the address that was
 *   checked (`pinnedLookup`: Host and TLS SNI stay the URL's name, and no second DNS answer can
 *   differ from the one checked — `fetch` cannot be pinned to an address, hence node:http(s));
 * - bounded: one deadline over the attempt (DNS, connection, answer), at most `maxResponseBytes`
 *   of the body read, redirects never followed (a 3xx is an answer like any other);
 * - worded: a failure without a usable answer is a DeliveryError whose reason is short, never
 *   holds the URL, and says whether another attempt may fare better (a refused connection, a
 *   timeout) or not (a TLS error, an oversized answer, a name that does not exist).
 *
 * Retries only when the caller asks (webhook delivery keeps its outbox's schedule and asks for
 * none): after no answer for a transient reason, a 429 or a 5xx — as long as the answer's
 * `Retry-After` asks (seconds or an HTTP date) when it sends one, else the caller's backoff; no
 * wait longer than `maxWaitMs`. A refused target (UnsafeTargetError) is never retried.
 *
 *   const client = new OutboundClient({ allowPrivate: false, publicOnly: 'feeds are only pushed to public addresses' });
 *   const answer = await client.request('https://agent.example/feeds', {
 *     method: 'POST', headers, body, timeoutMs: 30_000, maxResponseBytes: 1024 * 1024,
 *     retry: { attempts: 6, backoffMs: (n) => 1000 * 2 ** (n - 1), maxWaitMs: 300_000 },
 *   }); // { status, headers, body, durationMs, attempts }
 */
import http, { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { DeliveryError } from './delivery-errors.js';
import { vetTarget, type Resolver, type SafeTarget } from './safe-target.js';

/**
 * How much of an answer's body is read: `whole` — all of it, within the deadline and
 * `maxResponseBytes`, else DeliveryError; `excerpt` — the status is the answer: the body is read
 * until it ends, passes `maxResponseBytes` or the deadline passes, and what came is kept; `none` —
 * not read at all (the connection is closed at once).
 */
export type BodyReading = 'whole' | 'excerpt' | 'none';

export interface ExchangeRequest {
  method: string;
  headers?: Record<string, string>;
  /** The exact bytes to send (Content-Length is set). */
  body?: string;
  /** One deadline over the whole attempt. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Default `whole`; a function of the status to read some answers and not others. */
  read?: BodyReading | ((status: number) => BodyReading);
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as read (see BodyReading); an excerpt may run a few bytes past maxResponseBytes — cutting it is the caller's. */
  body: Buffer;
  /** Until the status and headers came. */
  durationMs: number;
}

export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  /** The wait before the n-th retry (n from 1) when the answer asked for none. */
  backoffMs: (retry: number) => number;
  /** No wait is longer; a longer Retry-After is cut to it. */
  maxWaitMs: number;
  /** Whether an attempt that got no answer is worth another (default: when the failure is transient). */
  retryFailure?: (error: DeliveryError) => boolean;
  /** Told before each retry, with the answer or the failure that caused it. */
  onRetry?: (retry: { attempt: number; waitMs: number; response?: OutboundResponse; error?: DeliveryError }) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface OutboundRequest extends ExchangeRequest {
  retry?: RetryOptions;
}

export interface OutboundPolicy {
  /** Loopback, private, link-local… addresses are allowed too (WEBHOOK_ALLOW_PRIVATE_TARGETS, or an operator's own endpoint). */
  allowPrivate: boolean;
  /** What a refusal says after the reason (see TargetPolicy). */
  publicOnly?: string;
  resolve?: Resolver;
  /** Longest wait for the DNS answer, within the attempt's deadline (default: the deadline). */
  dnsTimeoutMs?: number;
}

export function describeDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** A short, human reason for a socket-level failure. */
export function describeNetworkError(error: NodeJS.ErrnoException): string {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return error.message === 'socket hang up' ? 'connection closed without an answer' : 'connection reset by the target';
  if (code === 'EPIPE') return 'connection closed by the target';
  if (code === 'EHOSTUNREACH') return 'host unreachable';
  if (code === 'ENETUNREACH') return 'network unreachable';
  if (code === 'ETIMEDOUT') return 'connection timed out';
  if (code.startsWith('HPE_')) return `invalid HTTP response (${code})`;
  if (/^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code) || /SSL|TLS/.test(error.message)) {
    return `TLS error (${code || error.message})`;
  }
  return code ? `network error (${code})` : error.message;
}

/** Socket-level failures that a later attempt may not meet again. Anything else (TLS, HPE_…, unknown) is final. */
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'ECONNABORTED', 'EAI_AGAIN']);

const networkError = (error: NodeJS.ErrnoException) =>
  new DeliveryError(describeNetworkError(error), { cause: error, kind: 'network', transient: TRANSIENT.has(error.code ?? '') });

/** Always answers with the vetted address, whatever name is asked for. */
export function pinnedLookup(target: SafeTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

/** Whether an answer with this status is worth another attempt: 429 and 5xx. */
export const retryableStatus = (status: number): boolean => status === 429 || status >= 500;

/** Milliseconds a Retry-After asks for (delta-seconds or an HTTP date, RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date begins with its day's name: "Fri, 01 May 2026 …" (or the obsolete "Friday, 01-May-26 …", "Fri May  1 …").
  if (!/^[A-Za-z]{3,9},? /.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: the n-th retry waits between half and all of min(firstMs × 2^(n-1), maxMs). */
export function exponentialBackoff({ firstMs, maxMs, random = Math.random }: { firstMs: number; maxMs: number; random?: () => number }): (retry: number) => number {
  return (retry) => {
    const ceiling = Math.min(maxMs, firstMs * 2 ** (retry - 1));
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  };
}

/** One HTTP exchange with a target already vetted (see the module comment); the deadline runs from `started` (performance.now()). */
export function exchange(target: SafeTarget, request: ExchangeRequest, started = performance.now()): Promise<OutboundResponse> {
  const { method, headers = {}, body, timeoutMs, maxResponseBytes } = request;
  const read = request.read ?? 'whole';
  return new Promise((resolve, reject) => {
    const { url } = target;
    const began = performance.now();
    let settled = false;
    let sent: ClientRequest | undefined;
    /** Set once the status came, for an excerpt: answers with it and the body read so far. */
    let answer: (() => void) | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
      sent?.destroy();
    };
    const fail = (error: DeliveryError) => finish(() => reject(error));
    const deadline = setTimeout(
      () => finish(answer ?? (() => reject(new DeliveryError(`timed out after ${describeDuration(timeoutMs)}`, { kind: 'timeout' })))),
      Math.max(0, timeoutMs - (performance.now() - started)),
    );

    const onResponse = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const durationMs = Math.round(performance.now() - began);
      if (status < 100 || status > 599) return fail(new DeliveryError(`invalid HTTP status ${status}`, { kind: 'invalid-answer', transient: false }));
      const mode = typeof read === 'function' ? read(status) : read;
      const chunks: Buffer[] = [];
      let received = 0;
      const respond = () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks), durationMs });
      const tooLarge = () => fail(new DeliveryError(`answer larger than ${maxResponseBytes} bytes`, { kind: 'too-large', transient: false }));
      if (mode === 'none') return finish(respond);
      if (mode === 'whole' && Number(response.headers['content-length']) > maxResponseBytes) return tooLarge();
      if (mode === 'excerpt') answer = respond;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (mode === 'excerpt') {
          chunks.push(chunk); // past the limit too: the excerpt's cut is made at a character boundary (response-excerpt.ts)
          if (received > maxResponseBytes) finish(respond);
        } else if (received > maxResponseBytes) tooLarge();
        else chunks.push(chunk);
      });
      response.on('end', () => finish(respond));
      response.on('error', (error: NodeJS.ErrnoException) => (answer ? finish(answer) : fail(networkError(error))));
      response.on('close', () => {
        if (answer) finish(answer);
        else fail(new DeliveryError('connection closed before the answer ended', { kind: 'network' }));
      });
    };

    const transport = url.protocol === 'https:' ? https : http;
    sent = transport.request(
      {
        protocol: url.protocol,
        hostname: target.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        agent: false,
      },
      onResponse,
    );
    sent.on('error', (error: NodeJS.ErrnoException) => (answer ? finish(answer) : fail(networkError(error))));
    sent.end(body);
  });
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Requests under one guard policy; see the module comment. */
export class OutboundClient {
  constructor(private readonly policy: OutboundPolicy) {}

  /** Checks a URL as a request would, sending nothing: throws UnsafeTargetError (refused) or DeliveryError (no usable DNS answer). */
  vet(url: string | URL, dnsTimeoutMs = this.policy.dnsTimeoutMs ?? 10_000): Promise<SafeTarget> {
    const { allowPrivate, publicOnly, resolve } = this.policy;
    return vetTarget(url, { allowPrivate, dnsTimeoutMs, ...(publicOnly ? { publicOnly } : {}), ...(resolve ? { resolve } : {}) });
  }

  /**
   * The answer — any status: what it means is the caller's — after as many attempts as `retry`
   * allows (`attempts`: how many were made; a 429 or 5xx returned with attempts to spare was not
   * worth another). Throws UnsafeTargetError when the guard refuses the target, DeliveryError
   * (with its `attempts`) when no usable answer came.
   */
  async request(url: string | URL, request: OutboundRequest): Promise<OutboundResponse & { attempts: number }> {
    const { retry } = request;
    const attempts = retry?.attempts ?? 1;
    for (let attempt = 1; ; attempt++) {
      let response: OutboundResponse | undefined;
      let failure: DeliveryError | undefined;
      try {
        response = await this.attempt(url, request);
      } catch (error) {
        if (!(error instanceof DeliveryError)) throw error;
        failure = error;
      }
      const again =
        retry !== undefined && attempt < attempts && (failure ? (retry.retryFailure ?? ((error) => error.transient))(failure) : retryableStatus(response!.status));
      if (!again) {
        if (failure) {
          failure.attempts = attempt;
          throw failure;
        }
        return { ...response!, attempts: attempt };
      }
      const asked = response && retryAfterMs(firstOf(response.headers['retry-after']), retry.now?.());
      const wait = Math.min(asked ?? retry.backoffMs(attempt), retry.maxWaitMs);
      retry.onRetry?.({ attempt, waitMs: Math.round(wait), ...(response ? { response } : { error: failure! }) });
      await (retry.sleep ?? pause)(wait);
    }
  }

  private async attempt(url: string | URL, request: ExchangeRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const target = await this.vet(url, Math.min(this.policy.dnsTimeoutMs ?? request.timeoutMs, request.timeoutMs));
    return exchange(target, request, started);
  }
}
