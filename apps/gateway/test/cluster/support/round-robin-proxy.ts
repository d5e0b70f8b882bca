/**
 * The load balancer in front of the replicas, in a few lines of node:http: round robin,
 * keep-alive to the upstreams, and the next upstream when one refuses the connection (the
 * request never reached it — what nginx's `proxy_next_upstream error` does). A GET whose reused
 * connection was reset is tried again too; any other failure is a 502 for the client to retry
 * (the SDK does, with the same Idempotency-Key).
 */
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export interface RoundRobinProxy {
  url: string;
  /** The upstreams requests go to from now on (e.g. the first n replicas). */
  setUpstreams(urls: string[]): void;
  /** Requests answered 502 by the proxy itself. */
  badGateways: number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  let targets = upstreams.map((u) => new URL(u));
  let next = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const sockets = new Set<Socket>();

  const proxy: RoundRobinProxy = {
    url: '',
    badGateways: 0,
    setUpstreams: (urls) => (targets = urls.map((u) => new URL(u))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        agent.destroy();
      }),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<number>();
      const forward = () => {
        const index = next++ % targets.length;
        tried.add(index);
        const target = targets[index]!;
        const upstream = request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...endToEnd(req.headers), 'content-length': String(body.length) }, agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
            answer.pipe(res);
            answer.on('aborted', () => res.destroy());
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (res.headersSent) return void res.destroy();
          const neverArrived = error.code === 'ECONNREFUSED' || (upstream.reusedSocket && error.code === 'ECONNRESET' && (req.method === 'GET' || req.method === 'HEAD'));
          if (neverArrived && tried.size < targets.length) return forward();
          proxy.badGateways++;
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ detail: `upstream ${target.host}: ${error.code ?? error.message}`, code: 'bad_gateway' }));
        });
        upstream.end(body);
      };
      forward();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
