/**
 * One request of the Feed API client, over node:http(s) to the address the SSRF guard vetted
 * (`pinnedLookup`, as webhook deliveries do: Host and TLS SNI stay the URL's name, and no second
 * DNS answer can differ from the one checked — `fetch` cannot be pinned to an address, hence
 * not `fetch`). Within one deadline that covers the whole answer; redirects not followed (a 3xx
 * is an answer like any other); at most `maxResponseBytes` of the answer read. A failure without
 * an answer says whether another attempt could fare better: a refused or reset connection or a
 * timeout may; a TLS or certificate error, a malformed or oversized answer will not.
 */
import http, { type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { describeDuration, describeNetworkError, pinnedLookup } from '../../kernel/outbound/http-delivery.js';
import type { SafeTarget } from '../../kernel/outbound/safe-target.js';

export const MAX_FEED_RESPONSE_BYTES = 1024 * 1024;

export interface FeedHttpRequest {
  target: SafeTarget;
  method: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes?: number;
}

export interface FeedHttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** No usable answer came. `transient`: worth another attempt. `reason` is short and never holds the URL. */
export class NoAnswerError extends Error {
  override name = 'NoAnswerError';
  constructor(
    readonly reason: string,
    readonly transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

/** Socket-level failures that a later attempt may not meet again. Anything else (TLS, HPE_…, unknown) is final. */
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'ECONNABORTED', 'EAI_AGAIN']);

export const isTransientNetworkError = (error: NodeJS.ErrnoException): boolean => TRANSIENT.has(error.code ?? '');

export function sendFeedRequest({ target, method, headers, body, timeoutMs, maxResponseBytes = MAX_FEED_RESPONSE_BYTES }: FeedHttpRequest): Promise<FeedHttpResponse> {
  return new Promise((resolve, reject) => {
    const { url } = target;
    let settled = false;
    let request: ClientRequest | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
    };
    const fail = (error: NoAnswerError) => {
      finish(() => reject(error));
      request?.destroy();
    };
    const deadline = setTimeout(() => fail(new NoAnswerError(`no answer within ${describeDuration(timeoutMs)}`, true)), timeoutMs);

    const transport = url.protocol === 'https:' ? https : http;
    request = transport.request(
      {
        protocol: url.protocol,
        hostname: target.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxResponseBytes) fail(new NoAnswerError(`answer larger than ${maxResponseBytes} bytes`, false));
          else chunks.push(chunk);
        });
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status < 100 || status > 599) return fail(new NoAnswerError(`invalid HTTP status ${status}`, false));
          finish(() => resolve({ status, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        });
        response.on('error', (error: NodeJS.ErrnoException) => fail(new NoAnswerError(describeNetworkError(error), isTransientNetworkError(error), { cause: error })));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => fail(new NoAnswerError(describeNetworkError(error), isTransientNetworkError(error), { cause: error })));
    request.end(body);
  });
}
