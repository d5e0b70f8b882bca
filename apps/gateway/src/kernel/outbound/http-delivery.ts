/**
 * One webhook POST: to the vetted address only (a custom `lookup` returns it,
 * so Host and TLS SNI stay the URL's name), within a deadline, redirects not
 * followed (a 3xx is an answer like any other), and at most the excerpt's
 * bytes of the response body read (the rest is not waited for: the connection
 * is closed). Resolves with the status and the body's excerpt once the excerpt
 * is read, the body ends or the deadline passes — whichever comes first;
 * rejects with DeliveryError when no answer came.
 */
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { DeliveryError } from './delivery-errors.js';
import { RESPONSE_EXCERPT_BYTES, responseExcerpt } from './response-excerpt.js';
import type { SafeTarget } from './safe-target.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
const USER_AGENT = 'CommerceGateway-Webhooks/1.0';

export interface DeliveryRequest {
  target: SafeTarget;
  /** The exact bytes to send (the signature covers them). */
  body: string;
  /** Extra headers, e.g. X-Webhook-Signature. */
  headers: Record<string, string>;
  timeoutMs?: number;
  /** How much of the response body to read and keep (default RESPONSE_EXCERPT_BYTES). */
  excerptBytes?: number;
}

export interface DeliveryResponse {
  status: number;
  /** Until the status and headers came. */
  durationMs: number;
  /** The body's first `excerptBytes` as text (responseExcerpt()); what came before the deadline when the body was slow. */
  excerpt?: string;
}

/** Sends `body` as one POST; see the module comment. */
export type SendWebhook = (request: DeliveryRequest) => Promise<DeliveryResponse>;

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

/** Always answers with the vetted address, whatever name is asked for (the feed client connects through it too). */
export function pinnedLookup(target: SafeTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

export const postWebhook: SendWebhook = ({ target, body, headers, timeoutMs = DELIVERY_TIMEOUT_MS, excerptBytes = RESPONSE_EXCERPT_BYTES }) =>
  new Promise((resolve, reject) => {
    const { url } = target;
    const started = performance.now();
    let settled = false;
    let request: ClientRequest | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    // Set once the status came: answers with it and the body read so far.
    let answer: (() => void) | undefined;
    const deadline = setTimeout(() => {
      finish(answer ?? (() => reject(new DeliveryError(`timed out after ${describeDuration(timeoutMs)}`))));
      request?.destroy();
    }, timeoutMs);

    const onResponse = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const durationMs = Math.round(performance.now() - started);
      if (status < 100 || status > 599) {
        finish(() => reject(new DeliveryError(`invalid HTTP status ${status}`)));
        response.destroy();
        return;
      }
      // The status is the answer; keep at most excerptBytes of the body, then hang up.
      const chunks: Buffer[] = [];
      let received = 0;
      answer = () => resolve({ status, durationMs, excerpt: responseExcerpt(Buffer.concat(chunks), excerptBytes) });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received > excerptBytes) {
          finish(answer!);
          response.destroy();
        }
      });
      response.on('end', () => finish(answer!));
      response.on('error', () => {});
      response.on('close', () => {
        clearTimeout(deadline);
        finish(answer!);
      });
    };

    const transport = url.protocol === 'https:' ? https : http;
    request = transport.request(
      {
        protocol: url.protocol,
        hostname: target.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': USER_AGENT,
          ...headers,
        },
        lookup: pinnedLookup(target),
        agent: false,
      },
      onResponse,
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      finish(() => reject(new DeliveryError(describeNetworkError(error), { cause: error })));
    });
    request.end(body);
  });
