/**
 * The CLI's side of the local socket: finds a live gateway holding the embedded database, sends it
 * the command line and the files the command reads, and relays its output and exit code. Node's
 * built-ins only, so that reaching a running gateway loads nothing heavy.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { isAlive } from '../../db/data-dir-lock.js';
import { fileArguments, frame, pidPath, PROTOCOL_VERSION, socketPath, type Reply } from './protocol.js';

export interface RunningGatewaySocket {
  pid: number;
  path: string;
}

/** The live process (not this one) holding the embedded database in `dataDir`, if any (a stale pid file is ignored). */
function holder(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(pidPath(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
}

/** The gateway process holding the embedded database in `dataDir` and its socket, when there is one alive (a stale pid file or socket is ignored). */
export function runningGateway(dataDir: string): RunningGatewaySocket | undefined {
  const pid = holder(dataDir);
  const path = socketPath(dataDir);
  return pid !== undefined && existsSync(path) ? { pid, path } : undefined;
}

/** Whether a process listens on the socket. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * The running gateway to hand a command to, as runningGateway — but while a process holds the
 * embedded database without a socket (a gateway still starting: migrating, loading its catalog),
 * waits up to `timeoutMs` for its socket, or for the database to be free (undefined: run here),
 * telling `notice` once. After that, undefined: the command then meets the lock's own refusal.
 */
export async function awaitRunningGateway(dataDir: string, notice: (text: string) => void, timeoutMs = 60_000): Promise<RunningGatewaySocket | undefined> {
  const deadline = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    const pid = holder(dataDir);
    if (pid === undefined) return undefined;
    const running = runningGateway(dataDir);
    if (running && (await answers(running.path))) return running; // (a socket file left by a crashed gateway does not answer)
    if (Date.now() >= deadline) return undefined;
    if (!told) notice(`waiting for process ${pid}, which holds the embedded database (a gateway starting?), to answer…\n`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ClientIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

async function send(socket: Socket, text: string): Promise<void> {
  if (!socket.write(text)) await once(socket, 'drain');
}

/** Runs `args` in the gateway listening on `path`; resolves with the command's exit code. */
export async function runThroughGateway(gateway: RunningGatewaySocket, args: readonly string[], io: ClientIo): Promise<number> {
  const files = fileArguments(args).map((arg) => ({ arg, path: resolve(args[arg]!) }));
  for (const { arg, path } of files) {
    if (!existsSync(path) || !statSync(path).isFile()) {
      io.stderr(`error: no file ${args[arg]}\n`);
      return 1;
    }
  }
  const socket = connect(gateway.path);
  const exit = new Promise<number>((resolveExit, reject) => {
    let code: number | undefined;
    socket.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`the gateway (process ${gateway.pid}) holds the embedded database but does not answer on ${gateway.path}: ${error.code ?? error.message}`)),
    );
    const lines = createInterface({ input: socket, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const reply = JSON.parse(line) as Reply;
      if ('stdout' in reply) io.stdout(reply.stdout);
      else if ('stderr' in reply) io.stderr(reply.stderr);
      else code = reply.exit;
    });
    socket.once('close', () => (code === undefined ? reject(new Error(`the gateway (process ${gateway.pid}) closed the connection before the command finished`)) : resolveExit(code)));
  });
  exit.catch(() => {}); // awaited below; a failure while sending must not be unhandled meanwhile
  await once(socket, 'connect').catch(() => {});
  if (!socket.destroyed) {
    await send(socket, frame({ v: PROTOCOL_VERSION, args: [...args], files: files.map(({ arg, path }) => ({ arg, name: basename(path) })) }));
    for (const [index, { path }] of files.entries()) {
      for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
        await send(socket, frame({ file: index, data: (chunk as Buffer).toString('base64') }));
      }
      await send(socket, frame({ file: index, end: true }));
    }
  }
  return exit;
}
