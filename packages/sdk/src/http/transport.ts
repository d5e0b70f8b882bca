/**
 * Every call of `CommerceGateway` goes through `Transport.call`: it sends one generated
 * operation (ky's own retries off) and owns idempotency keys, request signing, retries with
 * backoff, timeouts and the mapping of answers to typed errors.
 */
import { createClient, type Client } from '../generated/client/index.js';
import type { ResolvedOptions } from '../config/options.js';
import { checkMaxRetries, checkTimeout } from '../config/options.js';
import { errorFromResponse } from '../errors/error-from-response.js';
import { CommerceGatewayError, ConnectionError, UnexpectedResponseError } from '../errors/errors.js';
import { newIdempotencyKey } from './idempotency-key.js';
import { createRequestSigner, type RequestSigner } from './request-signer.js';
import { createRequestSignerV2, signFetchRequest } from './request-signer-v2.js';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { sleep } from './sleep.js';

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Idempotency-Key for this POST or PATCH (default: a fresh UUID). The same key is sent on every retry of the call. */
  idempotencyKey?: string;
  /** Milliseconds to wait for each attempt's answer (overrides the client's `timeout`). */
  timeout?: number;
  /** Retries for this call (overrides the client's `maxRetries`). */
  maxRetries?: number;
  /** Aborts the call, retries and waits included; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra headers, e.g. `Request-Id` (your trace id) or `Accept-Language`. */
  headers?: Record<string, string>;
}

interface GeneratedResult {
  data?: unknown;
  error?: unknown;
  request?: Request;
  response?: Response;
}

/** A generated operation function (e.g. `createCheckoutSession`), called with `throwOnError: false`. */
export type GeneratedOperation = (options: never) => Promise<GeneratedResult>;

/** A generated zod schema of the operation's success body (`zGetProductResponse`, …). */
export interface ResponseSchema {
  parse(data: unknown): unknown;
}

export interface Call {
  /** The contract's operationId. */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH';
  send: GeneratedOperation;
  /** Checked against every 2xx body unless `validateResponses` is false. */
  schema: ResponseSchema;
  path?: Record<string, string>;
  query?: object;
  /** JSON body; serialized once, so the signature covers exactly the bytes sent. */
  body?: unknown;
}

export interface TransportDeps {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  retryPolicy: RetryPolicy;
}

const DEFAULT_DEPS: TransportDeps = { sleep, random: Math.random, retryPolicy: DEFAULT_RETRY_POLICY };

export class Transport {
  readonly #options: ResolvedOptions;
  readonly #client: Client;
  readonly #sign: RequestSigner | undefined;
  readonly #deps: TransportDeps;

  constructor(options: ResolvedOptions, deps: Partial<TransportDeps> = {}) {
    this.#options = options;
    this.#deps = { ...DEFAULT_DEPS, ...deps };
    this.#sign = options.signingSecret ? createRequestSigner(options.signingSecret) : undefined;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-ACP-API-Key': options.apiKey,
      'API-Version': options.apiVersion,
    };
    if (options.merchantId) headers['Merchant-Id'] = options.merchantId;
    this.#client = createClient({
      baseUrl: options.baseUrl,
      headers,
      retry: 0, // ky's own retries are off: this class retries, with the same Idempotency-Key
      throwOnError: false,
      timeout: options.timeout,
      ...(options.fetch ? { kyOptions: { fetch: options.fetch } } : {}),
    });
    if (options.signingSecret) {
      // v2 (X-Request-Signature) over the request as it is sent, at every attempt: keys that require it take nothing else.
      const signV2 = createRequestSignerV2(options.signingSecret);
      this.#client.interceptors.request.use((request) => signFetchRequest(signV2, request));
    }
  }

  async call<T>(call: Call, options: RequestOptions = {}): Promise<T> {
    const maxRetries = options.maxRetries === undefined ? this.#options.maxRetries : checkMaxRetries(options.maxRetries);
    const timeout = options.timeout === undefined ? this.#options.timeout : checkTimeout(options.timeout);
    const idempotencyKey = call.method === 'GET' ? undefined : (options.idempotencyKey ?? newIdempotencyKey());
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const signature = this.#sign ? await this.#sign(body ?? '') : undefined;

    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { ...options.headers };
      if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
      if (signature !== undefined) {
        headers.Signature = signature;
        headers.Timestamp = new Date().toISOString();
      }
      const started = performance.now();
      const result = await call.send({
        client: this.#client,
        path: call.path,
        query: call.query,
        body,
        bodySerializer: null, // `body` is already the JSON text that was signed
        headers,
        timeout,
        signal: options.signal,
        security: [], // the key is in the client's headers already
        parseAs: 'json', // a 2xx that is not JSON (a proxy's HTML page) is an UnexpectedResponseError, not data
        // The generated validators, run synchronously: zod's parseAsync costs twice as much.
        responseValidator: this.#options.validateResponses ? (data: unknown) => void call.schema.parse(data) : undefined,
      } as never);
      const { response } = result;
      if (response) this.#report(call, response, attempt, idempotencyKey, performance.now() - started);
      if (response?.ok && result.error === undefined) return result.data as T;
      if (options.signal?.aborted) throw options.signal.reason;

      const error = this.#toError(call, result, idempotencyKey, timeout);
      if (attempt >= maxRetries || !isRetryable(error)) throw error;
      const delay = retryDelayMs(error, attempt, this.#deps.retryPolicy, this.#deps.random);
      if (delay === undefined) throw error;
      await this.#deps.sleep(delay, options.signal);
    }
  }

  #toError(call: Call, result: GeneratedResult, idempotencyKey: string | undefined, timeout: number): CommerceGatewayError {
    const { response, error } = result;
    if (!response) {
      // Nothing was sent: a bug or an input fetch refuses, not a connection problem — never retried.
      if (!result.request) throw error;
      const timedOut = (error as Error | undefined)?.name === 'TimeoutError';
      const message = timedOut
        ? `No answer from the Commerce Gateway at ${this.#options.baseUrl} within ${timeout} ms (${call.operation})`
        : `Could not reach the Commerce Gateway at ${this.#options.baseUrl} (${call.operation}): ${reasonOf(error)}`;
      return new ConnectionError(message, { code: timedOut ? 'timeout' : 'connection_error', idempotencyKey, cause: error });
    }
    const requestId = response.headers.get('request-id') ?? undefined;
    if (response.ok) {
      return new UnexpectedResponseError(
        `The ${call.operation} answer does not match the contract this SDK was built from (${reasonOf(error)}); update @commerce-gateway/sdk or the gateway`,
        { status: response.status, code: 'unexpected_response', requestId, headers: response.headers, idempotencyKey, cause: error },
      );
    }
    return errorFromResponse(response.status, error, response.headers, idempotencyKey);
  }

  #report(call: Call, response: Response, attempt: number, idempotencyKey: string | undefined, durationMs: number): void {
    this.#options.onResponse?.({
      operation: call.operation,
      method: call.method,
      url: response.url,
      status: response.status,
      attempt,
      requestId: response.headers.get('request-id') ?? undefined,
      idempotencyKey,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      headers: response.headers,
      durationMs,
    });
  }
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return detail ? `${message} (${detail})` : message;
}
