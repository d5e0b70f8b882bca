/**
 * The negotiation middleware in a tiny Express app: UCP-Agent required and well-formed, a declared
 * version checked at once, the platform's profile fetched only by a handler that asks for it and
 * its version negotiated — each refusal in the shape and status of the release that answers it
 * (2026-04-08: `{code, content}` 400/422/424; 2026-01-11: `requires_escalation` messages, 400) —
 * and a profile that cannot be fetched failing only the requests that need it.
 */
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOn } from '../src/server.js';
import { problemHandler } from '../src/http/edge.js';
import { negotiationOf, ucpNegotiation } from '../src/ucp/negotiation.js';
import { ucpErrors } from '../src/ucp/ucp-errors.js';
import { AgentProfileFetcher } from '../src/ucp/profile-fetcher.js';
import { negotiatedVersion, type UcpVersion } from '../src/ucp/ucp-version.js';
import { call } from './support/http.js';
import { json, platformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';

let profiles: ProfileServer;
const apps: { url: string; close: () => Promise<void> }[] = [];

async function app(current: UcpVersion): Promise<string> {
  const fetcher = new AgentProfileFetcher({ allowPrivateTargets: true, allowHttp: true, timeoutMs: 300, failureTtlMs: 0 });
  const server = express();
  server.use('/ucp', ucpNegotiation({ current, fetcher }));
  server.get('/ucp/plain', (req, res) => {
    res.json({ version: negotiationOf(req).version, agent: negotiationOf(req).agent });
  });
  server.get('/ucp/needs-profile', async (req, res) => {
    const profile = await negotiationOf(req).profile();
    res.json({ version: negotiationOf(req).version, capabilities: Object.keys(profile.document.ucp.capabilities as object) });
  });
  server.use(problemHandler(() => ucpErrors(current), pino({ level: 'silent' })));
  const listening = await listenOn(server, '127.0.0.1', 0);
  apps.push(listening);
  return listening.url;
}

const agent = (path: string, extra = '') => ({ headers: { 'ucp-agent': `profile="${profiles.url}${path}"${extra}` } });

beforeAll(async () => {
  profiles = await startProfileServer();
  profiles.route('/current', json(platformProfile('2026-04-08')));
  profiles.route('/older', json(platformProfile('2026-01-11')));
  profiles.route('/ancient', json(platformProfile('2025-10-01')));
  profiles.route('/future', json(platformProfile('2027-01-01')));
  // Never answers: only the fetcher's deadline ends the wait, with no margin against a busy machine's clock.
  profiles.route('/slow', () => undefined);
  profiles.route('/not-json', json('<html>'));
});
afterAll(async () => {
  await Promise.all(apps.map((listening) => listening.close()));
  await profiles?.close();
});

describe('UCP negotiation, 2026-04-08 current', () => {
  let url: string;
  beforeAll(async () => {
    url = await app('2026-04-08');
  });

  it('refuses a missing or malformed UCP-Agent: 400 invalid_profile_url, before any handler', async () => {
    const headerSets: Record<string, string>[] = [{}, { 'ucp-agent': 'https://agent.example/profile' }, { 'ucp-agent': 'version="2026-04-08"' }];
    for (const headers of headerSets) {
      const reply = await call(`${url}/ucp/plain`, { headers });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ code: 'invalid_profile_url', content: expect.any(String) });
    }
  });

  it('refuses a declared version it does not speak at once (422 version_unsupported), never fetching the profile', async () => {
    const reply = await call(`${url}/ucp/plain`, agent('/current', ', version="2026-01-12"'));
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ code: 'version_unsupported', content: 'Protocol version 2026-01-12 is not supported. This business supports versions 2026-01-11 and 2026-04-08.' });
    expect(profiles.hits.get('/current')).toBeUndefined();
  });

  it('fetches nothing for a handler that does not need the profile, even when it cannot be fetched', async () => {
    const reply = await call(`${url}/ucp/plain`, agent('/slow'));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ version: '2026-04-08', agent: { profile: `${profiles.url}/slow` } });
    expect(profiles.hits.get('/slow')).toBeUndefined();
    expect((await call(`${url}/ucp/plain`, agent('/slow', ', version="2026-01-11"'))).body.version).toBe('2026-01-11');
  });

  it('negotiates the version of the profile a handler asks for', async () => {
    const current = await call(`${url}/ucp/needs-profile`, agent('/current'));
    expect(current.body).toEqual({ version: '2026-04-08', capabilities: ['dev.ucp.shopping.checkout'] });
    const older = await call(`${url}/ucp/needs-profile`, agent('/older'));
    expect(older.status).toBe(200);
    expect(older.body.version).toBe('2026-01-11');
  });

  it('refuses a profile of a release it does not speak, older or newer: 422 version_unsupported', async () => {
    const cases: [string, string][] = [
      ['/future', '2027-01-01'],
      ['/ancient', '2025-10-01'], // 2026-04-08: only the current version or a key of supported_versions
    ];
    for (const [path, version] of cases) {
      const reply = await call(`${url}/ucp/needs-profile`, agent(path));
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual({ code: 'version_unsupported', content: `Protocol version ${version} is not supported. This business supports versions 2026-01-11 and 2026-04-08.` });
    }
  });

  it('answers a profile it cannot fetch 424 profile_unreachable, and one it cannot read 422 profile_malformed', async () => {
    const slow = await call(`${url}/ucp/needs-profile`, agent('/slow'));
    expect(slow.status).toBe(424);
    expect(slow.body).toEqual({ code: 'profile_unreachable', content: expect.stringMatching(/timed out/) });
    const broken = await call(`${url}/ucp/needs-profile`, agent('/not-json'));
    expect(broken.status).toBe(422);
    expect(broken.body.code).toBe('profile_malformed');
  });
});

describe('UCP negotiation, 2026-01-11 current', () => {
  let url: string;
  beforeAll(async () => {
    url = await app('2026-01-11');
  });

  it('refuses as 2026-01-11 words it: 400 and a requires_escalation message', async () => {
    const missing = await call(`${url}/ucp/plain`);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: 'requires_escalation', messages: [{ type: 'error', code: 'invalid_profile_url', content: expect.any(String), severity: 'requires_buyer_input' }] });
    const newer = await call(`${url}/ucp/needs-profile`, agent('/current'));
    expect(newer.status).toBe(400);
    expect(newer.body.messages[0]).toEqual({
      type: 'error',
      code: 'version_unsupported',
      content: 'Protocol version 2026-04-08 is not supported. This business supports version 2026-01-11.',
      severity: 'requires_buyer_input',
    });
    const slow = await call(`${url}/ucp/needs-profile`, agent('/slow'));
    expect(slow.status).toBe(400);
    expect(slow.body.messages[0].code).toBe('profile_unreachable');
  });

  it('processes an older platform at 2026-01-11 ("platform version ≤ business version")', async () => {
    const reply = await call(`${url}/ucp/needs-profile`, agent('/ancient'));
    expect(reply.status).toBe(200);
    expect(reply.body.version).toBe('2026-01-11');
  });
});

describe('negotiatedVersion', () => {
  it.each([
    ['2026-04-08', '2026-04-08', '2026-04-08'],
    ['2026-01-11', '2026-04-08', '2026-01-11'],
    ['2026-01-12', '2026-04-08', undefined],
    ['2025-12-01', '2026-04-08', undefined],
    ['draft', '2026-04-08', undefined],
    ['2026-01-11', '2026-01-11', '2026-01-11'],
    ['2025-12-01', '2026-01-11', '2026-01-11'],
    ['2026-04-08', '2026-01-11', undefined],
  ] as const)('%s while %s is current → %s', (declared, current, expected) => {
    expect(negotiatedVersion(declared, current)).toBe(expected);
  });
});
