/**
 * One webhook POST against real receivers on loopback: statuses, failures
 * with their reasons, the pinned address, the deadline, the capped body.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { createSecureContext } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError } from '../src/kernel/outbound/delivery-errors.js';
import { postWebhook } from '../src/kernel/outbound/http-delivery.js';
import { vetTarget, type SafeTarget } from '../src/kernel/outbound/safe-target.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const target = (url: string, address = '127.0.0.1'): Promise<SafeTarget> =>
  vetTarget(url, { allowPrivate: true, resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }] });
const post = async (url: string, options: { body?: string; timeoutMs?: number; address?: string } = {}) =>
  postWebhook({ target: await target(url, options.address), body: options.body ?? '{"id":"evt_1"}', headers: { 'X-Webhook-Signature': 't=1,v1=ab' }, timeoutMs: options.timeoutMs ?? 2000 });

/** A port nothing listens on: bind, note it, close. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('postWebhook', () => {
  it.each([200, 201, 204, 400, 404, 410, 500, 503])('resolves with the status %i', async (status) => {
    receiver.reply = status;
    await expect(post(`${receiver.url}/hook`)).resolves.toMatchObject({ status, durationMs: expect.any(Number) });
  });

  it('sends the exact bytes as a JSON POST with the signature header', async () => {
    receiver.reply = 200;
    const body = JSON.stringify({ id: 'evt_bytes', note: 'héllo ✓ \u2028' });
    const before = receiver.requests.length;
    await post(`${receiver.url}/in/hooks?tenant=7`, { body });
    const got = receiver.requests[before]!;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/in/hooks?tenant=7');
    expect(got.raw.equals(Buffer.from(body))).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got.headers['x-webhook-signature']).toBe('t=1,v1=ab');
    expect(got.headers['user-agent']).toMatch(/^CommerceGateway-Webhooks\//);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const before = receiver.requests.length;
    receiver.replies[before] = (res) => {
      res.writeHead(302, { Location: `${receiver.url}/elsewhere` });
      res.end();
    };
    // A client that followed it would resolve with /elsewhere's answer, after requesting it: no wait needed.
    await expect(post(`${receiver.url}/moved`)).resolves.toMatchObject({ status: 302 });
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(['/moved']);
  });

  it('connects to the vetted address while Host names the URL\'s host', async () => {
    receiver.reply = 200;
    const before = receiver.requests.length;
    await post(`http://hooks.merchant.example:${receiver.port}/pinned`, { address: '127.0.0.1' });
    expect(receiver.requests[before]!.headers.host).toBe(`hooks.merchant.example:${receiver.port}`);
  });

  it('reaches an IPv6 loopback receiver', async () => {
    const v6 = await startReceiver('::1').catch(() => undefined);
    if (!v6) return; // no IPv6 on this machine
    try {
      await expect(post(`${v6.url}/v6`)).resolves.toMatchObject({ status: 200 });
      expect(v6.requests[0]!.headers.host).toBe(`[::1]:${v6.port}`);
    } finally {
      await v6.close();
    }
  });

  it('reads at most the capped size of a huge response body and hangs up', async () => {
    const before = receiver.requests.length;
    let written = 0;
    let hungUp!: () => void;
    const closed = new Promise<void>((resolve) => (hungUp = resolve));
    receiver.replies[before] = (res) =>
      new Promise<void>((resolve) => {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (written < 1024 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        };
        res.on('drain', pump);
        res.on('close', () => {
          resolve();
          hungUp();
        });
        pump();
      });
    await expect(post(`${receiver.url}/huge`)).resolves.toMatchObject({ status: 200, excerpt: 'x'.repeat(512) });
    await closed; // the client hung up: what was written by then is all it will ever be
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('resolves with the first 512 bytes of the body as text, cut at a character boundary', async () => {
    const before = receiver.requests.length;
    receiver.replies[before] = (res) => void res.writeHead(422).end(`${'a'.repeat(511)}✓ and more`);
    receiver.replies[before + 1] = (res) => void res.writeHead(200).end('{"received":true}');
    receiver.replies[before + 2] = 204;
    await expect(post(`${receiver.url}/cut`)).resolves.toMatchObject({ status: 422, excerpt: 'a'.repeat(511) });
    await expect(post(`${receiver.url}/short`)).resolves.toMatchObject({ status: 200, excerpt: '{"received":true}' });
    await expect(post(`${receiver.url}/empty`)).resolves.toMatchObject({ status: 204, excerpt: '' });
  });

  it('answers with the status and what came of the body when the body is slower than the deadline', async () => {
    const before = receiver.requests.length;
    receiver.replies[before] = (res) => {
      res.writeHead(200);
      res.write('partial'); // and never ends
    };
    // The body never ends: only the deadline can settle this (a missing one hangs to the test's timeout).
    await expect(post(`${receiver.url}/trickle`, { timeoutMs: 300 })).resolves.toMatchObject({ status: 200, excerpt: 'partial' });
  });

  it('fails on a status outside 100–599', async () => {
    const before = receiver.requests.length;
    receiver.replies[before] = 799;
    await expect(post(`${receiver.url}/odd`)).rejects.toMatchObject({ reason: 'invalid HTTP status 799' });
  });

  it('fails with "connection refused" on a closed port', async () => {
    const attempt = post(`http://127.0.0.1:${await closedPort()}/`);
    await expect(attempt).rejects.toThrow(DeliveryError);
    await expect(attempt).rejects.toMatchObject({ reason: 'connection refused' });
  });

  it('fails with "timed out after …" when no answer comes in time', async () => {
    const before = receiver.requests.length;
    receiver.replies[before] = () => new Promise(() => {}); // never answers
    // Never answering, only the deadline settles it (a missing one hangs to the test's timeout).
    await expect(post(`${receiver.url}/slow`, { timeoutMs: 300 })).rejects.toMatchObject({ reason: 'timed out after 300 ms' });
  });

  it('fails when the connection closes without an answer', async () => {
    const before = receiver.requests.length;
    receiver.replies[before] = (res) => void res.socket?.destroy();
    await expect(post(`${receiver.url}/hangup`)).rejects.toMatchObject({ reason: 'connection closed without an answer' });
  });

  describe('over TLS', () => {
    let tls: ReturnType<typeof createTlsServer>;
    let port: number;
    const servernames: string[] = [];

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gw-tls-'));
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
        '-subj', '/CN=hooks.merchant.example', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      ], { stdio: 'ignore' });
      const credentials = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
      tls = createTlsServer(
        {
          ...credentials,
          SNICallback: (servername, callback) => {
            servernames.push(servername);
            callback(null, createSecureContext(credentials));
          },
        },
        (_req, res) => res.end(),
      );
      tls.on('tlsClientError', () => {});
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      port = (tls.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => tls.close(resolve)));

    it("sends the URL's host as SNI to the pinned address, and reports an untrusted certificate as a TLS error", async () => {
      const attempt = post(`https://hooks.merchant.example:${port}/tls`);
      await expect(attempt).rejects.toThrow(DeliveryError);
      await expect(attempt).rejects.toMatchObject({ reason: expect.stringMatching(/^TLS error \(DEPTH_ZERO_SELF_SIGNED_CERT\)/) });
      expect(servernames).toContain('hooks.merchant.example');
    });
  });
});
