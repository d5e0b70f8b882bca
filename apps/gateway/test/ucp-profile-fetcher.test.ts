/**
 * The platform profile fetcher against a real local HTTP server: Cache-Control honoured (60 s floor,
 * one-hour ceiling), bounded LRU cache, concurrent requests sharing one fetch, failures remembered
 * briefly; a deadline, a size limit, no redirects, https only unless allowed, private addresses
 * refused unless allowed (as webhook targets are), malformed and schema-breaking profiles refused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentProfileFetcher, ttlOf, type ProfileFetcherOptions } from '../src/ucp/profile-fetcher.js';
import { UcpError } from '../src/ucp/ucp-error.js';
import { json, platformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';

let server: ProfileServer;
let clock = 1_000_000;
let release!: () => void;
const held = new Promise<void>((resolve) => (release = resolve));
const now = () => clock;
const fetcher = (options: Partial<ProfileFetcherOptions> = {}) => new AgentProfileFetcher({ allowPrivateTargets: true, allowHttp: true, failureTtlMs: 0, now, ...options });

async function refusal(work: Promise<unknown>): Promise<UcpError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UcpError);
  return error as UcpError;
}

beforeAll(async () => {
  server = await startProfileServer();
  server.route('/fresh-120', json(platformProfile(), { 'cache-control': 'public, max-age=120' }));
  server.route('/no-cache', json(platformProfile(), { 'cache-control': 'no-store' }));
  server.route('/older', json(platformProfile('2026-01-11'), { 'cache-control': 'public, s-maxage=600, max-age=30' }));
  server.route('/future', json(platformProfile('2027-01-01')));
  // Answers only when a test releases it: sharing is seen while the fetch is provably in flight.
  server.route('/held', (req, res) => void held.then(() => json(platformProfile())(req, res)));
  // Never answers: only the fetcher's own deadline can end the request (close() drops the socket).
  server.route('/hang', () => undefined);
  server.route('/huge', json({ ...platformProfile(), padding: 'x'.repeat(300 * 1024) }));
  server.route('/huge-chunked', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 20; i++) res.write(chunk);
    res.end();
  });
  server.route('/redirect', (_req, res) => void res.writeHead(302, { location: '/fresh-120' }).end());
  server.route('/broken', (_req, res) => void res.writeHead(500).end());
  server.route('/not-json', json('{"ucp":'));
  server.route('/no-version', json({ ucp: {} }));
  server.route('/bad-schema', json({ ucp: { version: '2026-04-08', services: {} } })); // no payment_handlers
});
afterAll(() => server?.close());

describe('AgentProfileFetcher', () => {
  it('fetches a profile once and answers from the cache while its max-age lasts', async () => {
    const profiles = fetcher();
    const first = await profiles.fetch(`${server.url}/fresh-120`);
    expect(first).toMatchObject({ url: `${server.url}/fresh-120`, version: '2026-04-08', document: { ucp: { version: '2026-04-08' } } });
    clock += 119_000;
    expect(await profiles.fetch(`${server.url}/fresh-120`)).toBe(first);
    expect(server.hits.get('/fresh-120')).toBe(1);
    clock += 2_000;
    await profiles.fetch(`${server.url}/fresh-120`);
    expect(server.hits.get('/fresh-120')).toBe(2);
  });

  it('keeps any profile at least 60 s (no-store included), prefers s-maxage, and takes 2026-01-11 profiles', async () => {
    const profiles = fetcher();
    await profiles.fetch(`${server.url}/no-cache`);
    clock += 59_000;
    await profiles.fetch(`${server.url}/no-cache`);
    expect(server.hits.get('/no-cache')).toBe(1);
    expect((await profiles.fetch(`${server.url}/older`)).version).toBe('2026-01-11');
    expect(ttlOf('public, s-maxage=600, max-age=30')).toBe(600_000);
    expect(ttlOf('max-age=999999')).toBe(3_600_000);
    expect(ttlOf(undefined)).toBe(60_000);
  });

  it('shares one fetch between concurrent requests', async () => {
    const profiles = fetcher();
    const both = Promise.all([profiles.fetch(`${server.url}/held`), profiles.fetch(`${server.url}/held`)]);
    await expect.poll(() => server.hits.get('/held')).toBe(1); // the one request is in flight, the second caller waits on it
    release();
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(server.hits.get('/held')).toBe(1);
  });

  it('holds at most maxEntries profiles, dropping the least recently used', async () => {
    const profiles = fetcher({ maxEntries: 2 });
    await profiles.fetch(`${server.url}/fresh-120`);
    await profiles.fetch(`${server.url}/older`);
    await profiles.fetch(`${server.url}/fresh-120`); // used again: /older is now the oldest
    await profiles.fetch(`${server.url}/no-cache`);
    expect(profiles.size).toBe(2);
    const before = server.hits.get('/fresh-120');
    await profiles.fetch(`${server.url}/fresh-120`);
    expect(server.hits.get('/fresh-120')).toBe(before);
  });

  // The server never answers, so only the fetcher's own deadline ends the wait (a missing one hangs the test).
  it('gives up after the deadline: profile_unreachable', async () => {
    const error = await refusal(fetcher({ timeoutMs: 200 }).fetch(`${server.url}/hang`));
    expect(error.code).toBe('profile_unreachable');
    expect(error.content).toMatch(/timed out after 200 ms/);
    expect(error.answer('2026-04-08').status).toBe(424);
  });

  // Fake time: the resolver takes 200 of the 300 ms, so the request must give up 100 ms after the
  // answer — at 300 ms in all, not 300 ms after the lookup (the server never answers).
  it('counts the DNS answer against the same deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const port = new URL(server.url).port;
      const resolve = () => new Promise<{ address: string; family: 4 }[]>((done) => setTimeout(() => done([{ address: '127.0.0.1', family: 4 }]), 200));
      let outcome: UcpError | undefined;
      const fetching = refusal(fetcher({ timeoutMs: 300, resolve }).fetch(`http://profiles.test:${port}/hang`)).then((error) => (outcome = error));
      await vi.advanceTimersByTimeAsync(299);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await fetching;
      expect(outcome!.code).toBe('profile_unreachable');
      expect(outcome!.content).toMatch(/timed out after 300 ms/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads at most maxBytes, whether the size is declared or not', async () => {
    for (const path of ['/huge', '/huge-chunked']) {
      const error = await refusal(fetcher().fetch(`${server.url}${path}`));
      expect(error.code).toBe('profile_unreachable');
      expect(error.content).toMatch(/larger than 262144 bytes/);
    }
    expect((await fetcher({ maxBytes: 1024 * 1024 }).fetch(`${server.url}/huge`)).version).toBe('2026-04-08');
  });

  it('never follows a redirect, and fails on any other non-2xx', async () => {
    expect((await refusal(fetcher().fetch(`${server.url}/redirect`))).content).toMatch(/302 \(a redirect/);
    expect(server.hits.get('/fresh-120')).toBeGreaterThan(0);
    expect((await refusal(fetcher().fetch(`${server.url}/broken`))).content).toMatch(/answered 500/);
  });

  it('refuses what is not a UCP profile: profile_malformed (422)', async () => {
    for (const [path, message] of [
      ['/not-json', /is not JSON/],
      ['/no-version', /has no ucp.version/],
      ['/bad-schema', /breaks the UCP 2026-04-08 profile schema/],
    ] as const) {
      const error = await refusal(fetcher().fetch(`${server.url}${path}`));
      expect(error.code).toBe('profile_malformed');
      expect(error.content).toMatch(message);
      expect(error.answer('2026-04-08').status).toBe(422);
    }
    // A release it does not know is fetched (negotiation refuses its version), not judged by a schema.
    expect((await fetcher().fetch(`${server.url}/future`)).version).toBe('2027-01-01');
  });

  it('refuses private addresses unless allowed, and http unless allowed: invalid_profile_url (400)', async () => {
    const guarded = fetcher({ allowPrivateTargets: false });
    const privateError = await refusal(guarded.fetch(`${server.url}/fresh-120`));
    expect(privateError.code).toBe('invalid_profile_url');
    expect(privateError.content).toMatch(/loopback address; platform profiles are only fetched from public addresses/);
    // A public name that resolves to a private address is refused the same way (DNS answer checked).
    const rebound = fetcher({ allowPrivateTargets: false, resolve: async () => [{ address: '10.0.0.7', family: 4 }] });
    expect((await refusal(rebound.fetch('https://agent.example/.well-known/ucp'))).content).toMatch(/resolves to a private address/);
    const httpsOnly = fetcher({ allowHttp: false });
    const plain = await refusal(httpsOnly.fetch(`${server.url}/fresh-120`));
    expect(plain.code).toBe('invalid_profile_url');
    expect(plain.content).toMatch(/not https/);
    expect(plain.answer('2026-04-08').status).toBe(400);
  });

  it('remembers a failure briefly, then tries again', async () => {
    const profiles = fetcher({ failureTtlMs: 5_000 });
    server.hits.delete('/broken');
    await refusal(profiles.fetch(`${server.url}/broken`));
    await refusal(profiles.fetch(`${server.url}/broken`));
    expect(server.hits.get('/broken')).toBe(1);
    clock += 5_001;
    await refusal(profiles.fetch(`${server.url}/broken`));
    expect(server.hits.get('/broken')).toBe(2);
  });
});
