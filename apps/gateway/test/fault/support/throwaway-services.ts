/**
 * A PostgreSQL cluster and a Redis server of the fault suite's own, in a
 * temporary directory on free loopback ports, that it may stop and start at
 * will without touching the machine's shared services. Both are removed by
 * `destroy()`. When the binaries are missing, `missingBinaries()` says which.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

function postgresBin(name: string): string | undefined {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const path = `/usr/lib/postgresql/${version}/bin/${name}`;
    if (existsSync(path)) return path;
  }
  return onPath(name);
}

function onPath(name: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The binaries this suite needs that are not installed (empty: all there). */
export function missingBinaries(): string[] {
  const wanted = { initdb: postgresBin('initdb'), pg_ctl: postgresBin('pg_ctl'), 'redis-server': onPath('redis-server') };
  return Object.entries(wanted)
    .filter(([, path]) => !path)
    .map(([name]) => name);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool (as the `postgres` user when we are root: the server refuses to run as root), without blocking the event loop. */
async function pgTool(tool: string, args: string[]): Promise<void> {
  const bin = postgresBin(tool)!;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  await run(command, argv, { encoding: 'utf8' });
}

export interface ThrowawayPostgres {
  /** postgresql://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** Fast shutdown: open connections are terminated, as when a server goes away. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Runs SQL on the cluster (it must be up). */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  destroy(): Promise<void>;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-fault-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
    chmodSync(dir, 0o700);
  }
  const port = await freePort();
  await pgTool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const cluster: ThrowawayPostgres = {
    url,
    port,
    stop: () => pgTool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start: () => pgTool('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']),
    async query(sql, params = []) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    async destroy() {
      await cluster.stop().catch(() => {}); // already stopped
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

export interface ThrowawayRedis {
  url: string;
  port: number;
  /** Kills the server (SIGKILL): connections drop, nothing is saved. */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      try {
        await run('redis-cli', ['-p', String(port), 'ping']);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop, destroy: stop };
}
