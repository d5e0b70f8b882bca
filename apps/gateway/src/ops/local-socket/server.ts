/**
 * The gateway's side of the local socket: while `serve` holds the embedded database, the CLI's
 * commands run here, in the gateway's process, over its open database and services (the same
 * implementation the CLI runs when it opens the database itself). Unix domain socket in the data
 * directory, mode 0600 (its owner only — that is the authentication), never a network port.
 */
import { once } from 'node:events';
import { createWriteStream, chmodSync, rmSync, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { frame, PROTOCOL_VERSION, socketPath, type FileChunk, type RequestHeader } from './protocol.js';

export interface SocketCommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  isTTY: false;
}

/** Runs a command line with its output on `io`; resolves with its exit code. */
export type SocketCommandRunner = (args: string[], io: SocketCommandIo) => Promise<number>;

export interface LocalSocket {
  path: string;
  /** Stops accepting, waits (up to `graceMs`) for the commands running, removes the socket file. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Unix socket paths are short (108 bytes on Linux): a data directory with a longer path has no
 * socket, and the CLI then says the database is in use, as before.
 */
const MAX_SOCKET_PATH = 100;

export async function listenLocalSocket(dataDir: string, run: SocketCommandRunner, logger: Logger): Promise<LocalSocket | undefined> {
  const path = socketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    logger.warn({ path }, 'the data directory\'s path is too long for a local socket: CLI commands cannot run beside this gateway');
    return undefined;
  }
  // We hold the data directory's lock: a socket file here is a crashed gateway's.
  rmSync(path, { force: true });
  const running = new Set<Promise<void>>();
  const server = createServer((socket) => {
    const work = serveConnection(socket, run, logger).catch((error: unknown) => {
      logger.warn({ err: error }, 'local socket: a CLI command failed');
      socket.destroy();
    });
    running.add(work);
    void work.finally(() => running.delete(work));
  });
  const umask = process.umask(0o177); // the socket is born 0600: never readable by another user, not even for a moment
  try {
    server.listen(path);
  } finally {
    process.umask(umask);
  }
  await once(server, 'listening');
  chmodSync(path, 0o600);
  return {
    path,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(running), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      await closed;
      rmSync(path, { force: true });
    },
  };
}

/** One CLI command: its header, the files it reads, then the command, its output streamed back. */
async function serveConnection(socket: Socket, run: SocketCommandRunner, logger: Logger): Promise<void> {
  const lines = createInterface({ input: socket, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) return void socket.end();
  const header = JSON.parse(first.value) as RequestHeader;
  const reply = (message: Parameters<typeof frame>[0]) => {
    if (!socket.destroyed) socket.write(frame(message));
  };
  if (header.v !== PROTOCOL_VERSION) {
    reply({ stderr: `error: this gateway speaks version ${PROTOCOL_VERSION} of the local socket's protocol, the CLI ${header.v}: run the CLI of the same build\n` });
    reply({ exit: 1 });
    return void socket.end();
  }
  const args = [...header.args];
  const uploads = header.files.length ? await mkdtemp(join(tmpdir(), 'gateway-cli-')) : undefined;
  const renames: [string, string][] = [];
  try {
    for (const [index, file] of header.files.entries()) {
      const path = join(uploads!, `${index}-${file.name.replace(/[^\w.-]/g, '_')}`);
      await receiveFile(lines, index, createWriteStream(path, { mode: 0o600 }));
      renames.push([path, args[file.arg]!]);
      args[file.arg] = path;
    }
    // Messages name the file as the operator gave it, not the temporary copy.
    const shown = (text: string) => renames.reduce((result, [path, given]) => result.replaceAll(path, given), text);
    logger.info({ command: header.args.filter((word) => !word.startsWith('-')).slice(0, 2).join(' ') }, 'local socket: CLI command');
    const code = await run(args, { stdout: (text) => reply({ stdout: shown(text) }), stderr: (text) => reply({ stderr: shown(text) }), isTTY: false });
    reply({ exit: code });
    socket.end();
  } finally {
    if (uploads) await rm(uploads, { recursive: true, force: true });
  }
}

async function receiveFile(lines: AsyncIterator<string>, index: number, file: WriteStream): Promise<void> {
  try {
    for (;;) {
      const next = await lines.next();
      if (next.done) throw new Error('the CLI went away while sending a file');
      const chunk = JSON.parse(next.value) as FileChunk;
      if (chunk.file !== index) throw new Error(`expected file ${index}, got ${chunk.file}`);
      if ('end' in chunk) break;
      if (!file.write(Buffer.from(chunk.data, 'base64'))) await once(file, 'drain');
    }
  } finally {
    file.end();
    await once(file, 'close');
  }
}
