/**
 * A cluster as a team runs it, on this machine: a database of its own on the shared PostgreSQL
 * server (created here, dropped by `destroy()`), reached by the replicas through a TCP proxy that
 * can cut it; the shared Redis; N `gateway serve` processes (the built CLI, GATEWAY_ENV=production)
 * on free ports; a round-robin proxy in front. The operator CLI talks to the database directly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../fault/support/throwaway-services.js';
import { CLI, runCli, type CliResult } from '../../support/cli.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export class Replica {
  child: ChildProcess | undefined;
  url: string;
  /** The last lines of its stderr (JSON logs), for a failure's message. */
  log: string[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts `gateway serve` and resolves once it listens. */
  start(): Promise<void> {
    const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, ...this.env, PORT: String(this.port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    return new Promise((resolve, reject) => {
      let stdout = '';
      child.stdout!.on('data', (chunk) => {
        stdout += chunk;
        if (/listening on http/.test(stdout)) resolve();
      });
      child.stderr!.on('data', (chunk) => {
        this.log.push(...String(chunk).split('\n').filter(Boolean));
        this.log.splice(0, Math.max(0, this.log.length - 50));
      });
      child.on('close', (code) => reject(new Error(`${this.name} exited with ${code}: ${this.log.slice(-5).join('\n')}`)));
    });
  }

  /** SIGTERM (graceful: drain, finish the worker's attempt, exit); resolves with the exit code. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child?.exitCode ?? null);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }
}

export interface Cluster {
  dbName: string;
  /** The database, directly (for the CLI and the test's own queries). */
  databaseUrl: string;
  replicas: Replica[];
  lb: RoundRobinProxy;
  pgProxy: TcpProxy;
  cli(args: string[]): Promise<CliResult>;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  destroy(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function startCluster({ replicas = 3, env = {} }: { replicas?: number; env?: Record<string, string> } = {}): Promise<Cluster> {
  const dbName = `cluster_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const direct = new URL(ADMIN_URL);
  direct.pathname = `/${dbName}`;
  const pgProxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
  const proxied = new URL(direct);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(pgProxy.port);
  const replicaEnv = {
    GATEWAY_ENV: 'production',
    PUBLIC_BASE_URL: 'http://127.0.0.1', // production needs it (discovery is never built from a request's Host); the proxy's port is not known yet
    HOST: '127.0.0.1',
    DATABASE_URL: proxied.toString(),
    DATABASE_POOL_SIZE: '10',
    REDIS_URL,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', // the receiver is on loopback
    WEBHOOK_RETRY_SCHEDULE: '0,1s,2s,3s,5s,8s,13s,21s', // the default's 5 s / 5 min steps, shortened to keep the suite bounded
    LOG_LEVEL: 'warn',
    ...env,
  };
  const ports = await Promise.all(Array.from({ length: replicas }, () => freePort()));
  const members = ports.map((port, i) => new Replica(`replica-${i + 1}`, port, replicaEnv));
  const pool = new pg.Pool({ connectionString: direct.toString(), max: 4 });
  pool.on('error', () => {});
  let lb: RoundRobinProxy | undefined;
  const cluster: Cluster = {
    dbName,
    databaseUrl: direct.toString(),
    replicas: members,
    get lb() {
      return lb!;
    },
    pgProxy,
    cli: (args) => runCli(args, { GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'http://127.0.0.1', DATABASE_URL: direct.toString(), LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }), // the receiver is on loopback
    query: async (sql, params = []) => (await pool.query(sql, params)).rows,
    async destroy() {
      await Promise.all(members.map((m) => m.stop('SIGKILL').catch(() => {})));
      await lb?.close();
      await pgProxy.close();
      await pool.end().catch(() => {});
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    },
  };
  try {
    // All at once on the empty database: they must not race its migrations.
    await Promise.all(members.map((m) => m.start()));
    lb = await startRoundRobinProxy(members.map((m) => m.url));
  } catch (error) {
    await cluster.destroy().catch(() => {});
    throw error;
  }
  return cluster;
}

/** The key on the last line of `keys create`'s stdout, and its id on the first. */
export function keyOf(result: CliResult): { id: string; key: string } {
  if (result.code !== 0) throw new Error(`keys create failed: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  return { id: lines[0]!.trim().split(/\s+/).at(-1)!, key: lines.at(-1)!.trim() };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` every 25 ms until it returns true. Resolves with when the first successful probe
 * was *sent*, in ms from the call (so the probe's own latency on a busy machine is not counted);
 * Infinity after `limitMs`.
 */
export async function timeUntil(probe: () => Promise<boolean>, limitMs = 5_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    const sent = performance.now();
    if (await probe().catch(() => false)) return Math.round(sent - started);
    await sleep(25);
  }
  return Infinity;
}
