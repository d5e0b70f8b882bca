/**
 * docs/agents.md's UCP walk-through works as written (issue 37), against a development gateway:
 * - `GET /ucp/dev/platform-profile.json` (development only) is a platform profile valid against the
 *   release's official schema — 2026-04-08 as is, 2026-01-11 as its overview shows one (without
 *   `ucp.services`, which the gateway accepts: src/ucp/profile-fetcher.ts);
 * - the curl block of "### Checkout" runs in bash, unchanged but for its first line (this gateway's
 *   URL and key), needing neither a second server nor `uuidgen`;
 * - the MCP example (the connection block and the UCP block) runs as an ES module with node,
 *   against the local sample profile, unchanged but for the gateway's URL.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { call } from './support/http.js';
import { profileProblems } from './support/official-ucp.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const run = promisify(execFile);
const AGENTS_MD = readFileSync(join(packageRoot, '..', '..', 'docs', 'agents.md'), 'utf8');
const SHIPPING = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 5 } }] }] };

/** The fenced blocks of `lang` in the docs' section that starts at `heading`, up to the next heading of its level. */
function blocks(heading: string, lang: string): string[] {
  const start = AGENTS_MD.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const level = heading.split(' ')[0]!;
  const next = AGENTS_MD.indexOf(`\n${level} `, start + heading.length + 2);
  const section = AGENTS_MD.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

let gateway: TestGateway;
let key: string;
let tmp: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('walkthrough', [stocked('10219178', [{ sku: '10219178-oak', price: 10.67, quantity: 50 }], { title: 'ADDE Chair' })]);
  await gateway.services.shipping.import('walkthrough', SHIPPING);
  await gateway.services.discounts.importFile('walkthrough', catalogFile([{ type: 'code', code: 'WELCOME10', kind: 'percentage', percentage: 10 }], 'discounts.ndjson'));
  key = await gateway.createKey({ merchantIds: ['walkthrough'] });
  tmp = mkdtempSync(join(packageRoot, '.walkthrough-'));
}, 60_000);

afterAll(async () => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  await gateway?.close();
});

describe('the development platform profile', () => {
  it.each([['2026-04-08', ''], ['2026-01-11', '?version=2026-01-11']] as const)('is a valid %s platform profile', async (release, query) => {
    const reply = await call(`${gateway.url}/ucp/dev/platform-profile.json${query}`);
    expect(reply.status).toBe(200);
    expect(reply.body.ucp.version).toBe(release);
    const asRead = release === '2026-01-11' ? { ...reply.body, ucp: { services: {}, ...reply.body.ucp } } : reply.body;
    expect(profileProblems(release, asRead, 'platform')).toEqual([]);
  });
});

describe('docs/agents.md', () => {
  it('the UCP curl walk-through runs as written: create, choose, complete, read the order', async () => {
    const [script] = blocks('### Checkout', 'sh');
    expect(script).toBeDefined();
    expect(script).not.toContain('uuidgen');
    const lines = script!.split('\n');
    expect(lines[0]).toMatch(/^GW=http:\/\/127\.0\.0\.1:8080 GATEWAY_API_KEY=sk_dev_…/);
    lines[0] = `GW=${gateway.url} GATEWAY_API_KEY=${key}`;
    const { stdout } = await run('bash', ['-e', '-c', lines.join('\n')], { timeout: 60_000 });
    expect(stdout).toContain('"status":"incomplete"');
    expect(stdout).toContain('ready_for_complete');
    expect(stdout.trim().split('\n').at(-1)).toBe('Preparing for shipment');
  }, 90_000);

  it('the MCP example installs one package and checks out through UCP against the local profile', async () => {
    const mcp = AGENTS_MD.slice(AGENTS_MD.indexOf('\n## Agents over MCP\n'));
    expect(mcp).toContain('npm install @modelcontextprotocol/sdk');
    const js = [...mcp.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const [connect, , ucp] = js;
    expect(ucp).toContain('/ucp/dev/platform-profile.json');
    const file = join(tmp, 'agent.mjs');
    writeFileSync(file, `${connect}\n${ucp}`.replaceAll('http://127.0.0.1:8080', gateway.url));
    const { stdout } = await run(process.execPath, [file], { env: { ...process.env, GATEWAY_API_KEY: key }, timeout: 60_000 });
    expect(stdout.trim()).toMatch(/^completed ord_/);
  }, 90_000);
});
