/**
 * One REST call to this same gateway, as an MCP tool call is dispatched: a real HTTP request to
 * the address the MCP request itself arrived at (its socket's local address and port — the
 * server's own listening address, whatever HOST and PORT are), so the call runs the whole REST
 * edge: authentication, scopes, rate limits, signature, validation, idempotency, errors.
 *
 *   const target = loopbackTarget(req);
 *   const reply = await dispatch(target, { method: 'GET', path: '/acp/checkout_sessions/cs_1', headers });
 */
import { Agent, request } from 'node:http';
import type { Request } from 'express';

export interface RestCall {
  method: 'GET' | 'POST' | 'PUT';
  /** The REST path, query included. */
  path: string;
  headers: Record<string, string>;
  /** The JSON body; none for GET. */
  body?: unknown;
}

export interface RestReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON answer (undefined when empty or not JSON). */
  body: unknown;
}

/** Where this gateway answers: host (IPv6 in brackets) and port, as the MCP request's socket knows them. */
export interface LoopbackTarget {
  host: string;
  port: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function loopbackTarget(req: Pick<Request, 'socket'>): LoopbackTarget {
  const { localAddress, localPort } = req.socket;
  if (!localAddress || !localPort) throw new Error('The MCP request has no local address to dispatch its tool calls to');
  return { host: localAddress, port: localPort };
}

/** Sends `call` to `target` and reads the whole answer (REST answers are bounded JSON documents). */
export function dispatch(target: LoopbackTarget, call: RestCall): Promise<RestReply> {
  const payload = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body), 'utf8');
  const headers: Record<string, string | number> = { accept: 'application/json', ...call.headers };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  } else if (call.method !== 'GET') headers['content-length'] = 0;
  return new Promise((resolve, reject) => {
    const sent = request({ host: target.host, port: target.port, method: call.method, path: call.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 502, headers: res.headers, body });
      });
    });
    sent.on('error', reject);
    sent.end(payload);
  });
}
