/**
 * Stripe's official mock server (stripe-mock v0.122.0, Stripe API 2020-08-27) on loopback, for
 * tests: every request it gets is validated against Stripe's OpenAPI specification (a wrong path,
 * parameter, type or enum answers 400 invalid_request_error) and answered with a fixture. It keeps
 * no state; outcomes come from the double in fake-stripe.ts, which forwards to it first.
 *
 * Usage:
 *
 *     const mock = await startStripeMock();            // { url: 'http://127.0.0.1:<port>', stop }
 *     const stripe = new Stripe('sk_test_123', stripeClientOptions(mock.url));
 *     …
 *     await mock.stop();
 *
 * The binary is `<repo root>/../shared/tools/stripe-mock/stripe-mock` (its README is beside it),
 * or STRIPE_MOCK_BIN. Both `-http-addr` and `-https-addr` are given free loopback ports, or it
 * would also listen for HTTPS on every interface.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StripeMock {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Where the stripe-mock binary is: STRIPE_MOCK_BIN, or the shared tools beside the repository. */
export function stripeMockBinary(): string {
  return process.env.STRIPE_MOCK_BIN || resolve(REPO_ROOT, '../shared/tools/stripe-mock/stripe-mock');
}

/** The `stripe` client's options that point it at `url` (stripe-mock or the double), plain HTTP. */
export function stripeClientOptions(url: string): { host: string; port: number; protocol: 'http' } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port), protocol: 'http' };
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export async function startStripeMock(): Promise<StripeMock> {
  const binary = stripeMockBinary();
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(
      `stripe-mock is not at ${binary} (or not executable): the payment tests validate every Stripe request with it. ` +
        'Put the binary there (see ../shared/tools/stripe-mock/README.md) or set STRIPE_MOCK_BIN to its path.',
    );
  }
  // A port picked free may be taken before stripe-mock binds it: try a few times.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const child = spawn(binary, ['-http-addr', `127.0.0.1:${httpPort}`, '-https-addr', `127.0.0.1:${httpsPort}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const url = `http://127.0.0.1:${httpPort}`;
    try {
      await waitUntilAnswering(url, child);
      return { url, stop: () => stop(child) };
    } catch (error) {
      lastError = new Error(`stripe-mock did not start: ${(error as Error).message}\n${stderr}`);
      await stop(child);
    }
  }
  throw lastError;
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`it exited with code ${child.exitCode}`);
    try {
      // Any HTTP answer (401 without a key) means it listens.
      await fetch(`${url}/v1/balance`, { signal: AbortSignal.timeout(500) });
      return;
    } catch {
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  throw new Error('it did not answer within 10 s');
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}
