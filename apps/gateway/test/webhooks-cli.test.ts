/**
 * `gateway webhooks …` commands, run in-process against a real database
 * (PostgreSQL with TEST_DATABASE_URL, else an embedded data directory).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { duration, webhooksCommand } from '../src/cli/commands/webhooks.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let pg: TestDatabase | undefined;
let dataDir: string;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    pg = await createTestDatabase();
    process.env.DATABASE_URL = pg.url;
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'gw-webhooks-cli-'));
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dataDir;
  }
  await withDb((db) => db.prisma.merchant.create({ data: { id: 'shop', name: 'shop' } }));
});
afterAll(() => pg?.close());

/** The database the CLI uses, opened while no command holds it. */
async function withDb<T>(work: (db: Database) => Promise<T>): Promise<T> {
  if (pg) return work(pg);
  const db = await openDatabase({ dataDir });
  try {
    await db.migrate();
    return await work(db);
  } finally {
    await db.close();
  }
}

/** Runs `gateway webhooks …args` and returns its stdout lines. */
async function gateway(...args: string[]): Promise<string[]> {
  const program = new Command('gateway').exitOverride().configureOutput({ writeErr: () => {} });
  webhooksCommand(program);
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(...String(chunk).split('\n').filter(Boolean)), true));
  try {
    await program.parseAsync(['webhooks', ...args], { from: 'user' });
  } finally {
    spy.mockRestore();
  }
  return lines;
}

async function addEndpoint(): Promise<{ id: string; secret: string }> {
  const lines = await gateway('add-endpoint', '--merchant', 'shop', '--url', 'https://hooks.example/orders');
  return { id: lines[0]!.replace('id: ', ''), secret: lines.at(-1)! };
}

describe('webhooks rotate-secret', () => {
  it('prints a new secret on the last line and keeps the old one for 24 h by default', async () => {
    const endpoint = await addEndpoint();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const before = Date.now();
    const lines = await gateway('rotate-secret', '--endpoint', endpoint.id);
    const secret = lines.at(-1)!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(endpoint.secret);
    expect(lines[0]).toBe(`id: ${endpoint.id}`);
    const row = await withDb((db) => db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }));
    expect(row).toMatchObject({ secret, previousSecret: endpoint.secret });
    const overlap = row.previousSecretExpiresAt!.getTime() - before;
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThan(24 * 3600_000 + 60_000);
  });

  it('takes --overlap; a second rotation keeps only the secret just replaced', async () => {
    const endpoint = await addEndpoint();
    const first = (await gateway('rotate-secret', '--endpoint', endpoint.id, '--overlap', '30m')).at(-1)!;
    const second = (await gateway('rotate-secret', '--endpoint', endpoint.id, '--overlap', '2h')).at(-1)!;
    const row = await withDb((db) => db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }));
    expect(row).toMatchObject({ secret: second, previousSecret: first });
    expect(row.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(2 * 3600_000 - 60_000);
  });

  it('retires the old secret at once with --overlap 0', async () => {
    const endpoint = await addEndpoint();
    const lines = await gateway('rotate-secret', '--endpoint', endpoint.id, '--overlap', '0');
    expect(lines).toContain('previous secret retired now');
    const row = await withDb((db) => db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }));
    expect(row).toMatchObject({ secret: lines.at(-1), previousSecret: null, previousSecretExpiresAt: null });
  });

  it('says so for an unknown endpoint or a bad overlap', async () => {
    await expect(gateway('rotate-secret', '--endpoint', 'we_nope')).rejects.toThrow('no webhook endpoint "we_nope"');
    await expect(gateway('rotate-secret', '--endpoint', 'we_nope', '--overlap', 'soon')).rejects.toThrow('--overlap must be a duration like 24h');
  });
});

describe('webhooks enable-endpoint', () => {
  it('re-enables an endpoint that was disabled', async () => {
    const endpoint = await addEndpoint();
    await withDb((db) => db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { disabledAt: new Date() } }));
    expect(await gateway('enable-endpoint', '--endpoint', endpoint.id)).toEqual([`enabled: ${endpoint.id}`]);
    const row = await withDb((db) => db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }));
    expect(row.disabledAt).toBeNull();
    await expect(gateway('enable-endpoint', '--endpoint', 'we_nope')).rejects.toThrow('no webhook endpoint');
  });
});

describe('--overlap durations', () => {
  it.each([
    ['0', 0],
    ['1500ms', 1500],
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
  ])('%s = %i ms', (raw, ms) => {
    expect(duration(raw)).toBe(ms);
  });

  it.each(['', '24', '-1h', '1.5h', '1w', 'h'])('refuses %j', (raw) => {
    expect(() => duration(raw)).toThrow(/--overlap must be a duration/);
  });
});

describe('webhooks add-endpoint --protocol / --secret', () => {
  it('registers our protocol by default, with a generated secret', async () => {
    const lines = await gateway('add-endpoint', '--merchant', 'shop', '--url', 'https://hooks.example/ours');
    expect(lines[2]).toBe('protocol: gateway');
    expect(lines.at(-1)).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it('registers an ACP endpoint with the secret the agent platform issued', async () => {
    const lines = await gateway('add-endpoint', '--merchant', 'shop', '--url', 'https://agent.example/agentic_checkout/webhooks/order_events', '--protocol', 'acp', '--secret', 'issued-by-agent-0123456789');
    expect(lines.slice(2)).toEqual(['protocol: acp', 'issued-by-agent-0123456789']);
    const row = await withDb((db) => db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: lines[0]!.replace('id: ', '') } }));
    expect(row).toMatchObject({ protocol: 'acp', secret: 'issued-by-agent-0123456789' });
  });

  it('generates the ACP secret when --secret is omitted', async () => {
    const lines = await gateway('add-endpoint', '--merchant', 'shop', '--url', 'https://agent.example/hooks', '--protocol', 'acp');
    expect(lines.at(-1)).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    [['--protocol', 'stripe'], /--protocol must be one of gateway, acp/],
    [['--secret', 'short'], /--secret must be 16 to 256 visible ASCII characters/],
    [['--secret', 'has a space in it, sadly'], /--secret must be 16 to 256/],
  ])('refuses %j', async (args, message) => {
    await expect(gateway('add-endpoint', '--merchant', 'shop', '--url', 'https://hooks.example/x', ...args)).rejects.toThrow(message);
  });
});
