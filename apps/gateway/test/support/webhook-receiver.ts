/**
 * A real webhook receiver on loopback for tests: records every request with
 * its raw body bytes, answers with a status chosen per request, and can be
 * stopped and started again on the same port (a receiver that is down).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  raw: Buffer;
  json: { id: string; type: string; created: string; data: { object: Record<string, unknown> } };
}

/** Answers one request: a status, or `respond` for anything more (delays, bodies, redirects). */
export type Reply = number | ((res: ServerResponse, request: ReceivedRequest) => void | Promise<void>);

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** What to answer each request with (default 200)… */
  reply: Reply;
  /** …unless `replies[i]` is set for the i-th request (0-based). */
  replies: Reply[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Stops listening (the port refuses connections) and drops open connections. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let port = 0;

  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    reply: 200,
    replies: [],
    waitFor(count, timeoutMs = 10_000) {
      if (receiver.requests.length >= count) return Promise.resolve(receiver.requests.slice(0, count));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${receiver.requests.length} of ${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(receiver.requests.slice(0, count))) });
      });
    },
    down: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }),
    up: () => listen(port),
    close: () => receiver.down(),
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let json: ReceivedRequest['json'];
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined as never;
      }
      const request: ReceivedRequest = { method: req.method!, path: req.url!, headers: req.headers, raw, json };
      const index = receiver.requests.push(request) - 1;
      for (const waiter of waiters.filter((w) => receiver.requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = receiver.replies[index] ?? receiver.reply;
      if (typeof reply === 'number') {
        res.statusCode = reply;
        res.end('ok');
      } else {
        await reply(res, request);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function listen(at: number): Promise<void> {
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, host, () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        receiver.port = port;
        receiver.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
        resolve();
      });
    });
  }
  await listen(0);
  return receiver;
}

/** HMAC-SHA256 of `body` keyed with `secret`, computed by the openssl binary — independent of our code. */
export function opensslHmacHex(body: Buffer, secret: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gw-hmac-')), 'body');
  writeFileSync(file, body);
  const output = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, file], { encoding: 'utf8' });
  const hex = /([0-9a-f]{64})\s*$/.exec(output.trim())?.[1];
  if (!hex) throw new Error(`unexpected openssl output: ${output}`);
  return hex;
}

/** The v1 values of an X-Webhook-Signature header. */
export function v1Values(header: string | string[] | undefined): string[] {
  return String(header ?? '')
    .split(',')
    .filter((part) => part.startsWith('v1='))
    .map((part) => part.slice(3));
}
