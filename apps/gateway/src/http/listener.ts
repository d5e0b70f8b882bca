/**
 * Serving a request handler on a host and port: a listen failure worded for the operator, the
 * keep-alive a load balancer needs, and a close that drains the requests in flight.
 *
 *   const listening = await listenOn(app, '127.0.0.1', 0); … await listening.close({ graceMs: 100 });
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import { KnownError } from '../kernel/errors.js';
import { messageClasses } from './express-messages.js';

/** HOST:PORT cannot be listened on; its message tells the operator which setting to change. */
export class ListenError extends KnownError {
  readonly code = 'listen_failed';
  readonly status = 500;
  readonly expose = true;
}

export interface CloseOptions {
  /** How long requests in flight may take to finish before their connections are dropped (default 10 s). */
  graceMs?: number;
}

export interface Listening {
  server: Server;
  url: string;
  /**
   * Stops accepting, closes idle keep-alive connections (and each busy one as
   * soon as its response is sent), waits up to `graceMs` for the requests in
   * flight, then drops the connections left.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** How long a shutdown lets the requests in flight finish (SIGTERM, `close()`). */
export const SHUTDOWN_GRACE_MS = 10_000;

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (error.code === 'EADDRINUSE') reject(new ListenError(`PORT ${port} is already in use on ${host} (set PORT to another port)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new ListenError(`HOST ${host} is not an address of this machine`));
      else if (error.code === 'EACCES') reject(new ListenError(`no permission to listen on ${where}`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}

/** Fails (ListenError) when host:port cannot be listened on now: a check before a slow start-up. */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await listen(probe, host, port);
  await new Promise((resolve) => probe.close(resolve));
}

/**
 * How long an idle keep-alive connection stays open: longer than the idle timeout of the load
 * balancers put in front of replicas (nginx's upstream keepalive_timeout and AWS ALB's are 60 s).
 * With Node's default, 5 s, a balancer sends a request on a connection the gateway is closing at
 * that moment and answers 502 — for a POST it cannot retry.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Serves a request handler on host:port (0 = any free port). */
export async function listenOn(handler: RequestListener, host: string, port: number): Promise<Listening> {
  const server = createServer(messageClasses(handler), handler);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000; // Node wants it above keepAliveTimeout
  await listen(server, host, port);
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    close({ graceMs = SHUTDOWN_GRACE_MS } = {}) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      return closed.finally(() => {
        clearInterval(sweep);
        clearTimeout(force);
      });
    },
  };
}
