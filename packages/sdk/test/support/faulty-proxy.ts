/**
 * A TCP proxy in front of the gateway that can misbehave once:
 * - `dropNextResponse()`: forward the next request, let the gateway answer it in full, then
 *   reset the client's connection instead of passing the answer on — the server did the work,
 *   the client saw a connection error;
 * - `stallNextResponse()`: hold the next answer back until the client gives up.
 * What was held back is kept in `heldBack` (raw HTTP responses).
 */
import { createServer, connect, type Socket } from 'node:net';

export interface FaultyProxy {
  url: string;
  dropNextResponse(): void;
  stallNextResponse(): void;
  heldBack: string[];
  close(): Promise<void>;
}

/** True once `raw` holds a whole HTTP/1.1 response (Content-Length or chunked). */
function isComplete(raw: Buffer): boolean {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const head = text.slice(0, end);
  const length = /^content-length:\s*(\d+)/im.exec(head);
  if (length) return raw.length >= end + 4 + Number(length[1]);
  return /^transfer-encoding:\s*chunked/im.test(head) && text.endsWith('0\r\n\r\n');
}

export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const { hostname, port } = new URL(target);
  let next: 'drop' | 'stall' | undefined;
  const heldBack: string[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);

    let fault: 'drop' | 'stall' | undefined;
    let held = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      if (!fault && next) {
        fault = next;
        next = undefined;
      }
      if (!fault) {
        client.write(chunk);
        return;
      }
      held = Buffer.concat([held, chunk]);
      if (!isComplete(held)) return;
      heldBack.push(held.toString('utf8'));
      if (fault === 'drop') client.resetAndDestroy(); // ECONNRESET on the client's side
      // 'stall': keep the connection open and silent until the client gives up.
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    dropNextResponse: () => void (next = 'drop'),
    stallNextResponse: () => void (next = 'stall'),
    heldBack,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The JSON body of a raw HTTP response. */
export function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

/** The status of a raw HTTP response. */
export function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
}
