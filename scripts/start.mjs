#!/usr/bin/env node
// `npm start`: the gateway in the foreground, for a person at a terminal.
//   1. Checks, before anything slow, that the port is free and that no gateway already serves the
//      data directory: one line and exit 1 within a second otherwise.
//   2. Installs and builds only when needed (scripts/lib/workspace.mjs).
//   3. Runs `node apps/gateway/dist/cli.js serve`, which prints one block when ready (URL, /docs,
//      the development key on a first start); its logs go to stderr, before that block and after.
// Ctrl-C reaches the whole foreground process group; a signal sent to this process alone is
// passed on (serve ignores a duplicate within a second), and we exit with the server's code once
// it has stopped and removed its pid and socket files.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { cliPath, ensureBuilt, ensureInstalled, root } from './lib/workspace.mjs';

const fail = (line) => {
  process.stderr.write(`error: ${line}\n`);
  process.exit(1);
};

function portOf(raw) {
  if (raw === undefined || raw.trim() === '') return 8080;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) > 65535) fail(`PORT=${JSON.stringify(raw)} is not a port number (0-65535)`);
  return Number(raw);
}

/** Resolves when host:port can be listened on; fails with the gateway's own message otherwise. */
function checkPort(host, port) {
  if (port === 0) return Promise.resolve();
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', (error) => {
      if (error.code === 'EADDRINUSE') fail(`PORT ${port} is already in use on ${host} (set PORT to another port)`);
      if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') fail(`HOST ${host} is not an address of this machine`);
      if (error.code === 'EACCES') fail(`no permission to listen on ${host}:${port}`);
      fail(`cannot listen on ${host}:${port}: ${error.message}`);
    });
    probe.listen(port, host, () => probe.close(() => done()));
  });
}

function checkDataDir() {
  if (process.env.DATABASE_URL?.trim()) return;
  const dataDir = resolve(root, process.env.DATA_DIR?.trim() || '.data');
  let pid;
  try {
    pid = Number(readFileSync(join(dataDir, 'gateway.pid'), 'utf8'));
  } catch {
    return;
  }
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return; // a crashed gateway's: serve replaces it
  }
  fail(`a gateway (process ${pid}) already serves the embedded database in ${dataDir}; stop it first (CLI commands work beside it: pnpm gateway …)`);
}

await checkPort(process.env.HOST?.trim() || '127.0.0.1', portOf(process.env.PORT));
checkDataDir();
ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, [cliPath, 'serve', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
