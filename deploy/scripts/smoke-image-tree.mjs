#!/usr/bin/env node
// Starts the gateway from an image tree (deploy/scripts/image-tree.mjs) as the image would run it —
// `node dist/cli.js`, GATEWAY_ENV=production, from another working directory — on a database of its
// own on the local PostgreSQL: `migrate`, a real key and a catalog through the tree's CLI, `serve`,
// real requests, SIGTERM. Exits non-zero on any failure.
//
//   node deploy/scripts/smoke-image-tree.mjs TREE_DIR   (PG_ADMIN_URL, REDIS_URL optional)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const tree = resolve(process.argv[2] ?? '');
const adminUrl = process.env.PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const cli = join(tree, 'dist', 'cli.js');
const work = mkdtempSync(join(tmpdir(), 'gw-image-'));
const database = `image_smoke_${process.pid}`;
const url = new URL(adminUrl);
url.pathname = `/${database}`;
const port = await new Promise((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => done(free));
  });
});
const env = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  GATEWAY_ENV: 'production',
  PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, // production refuses to start without it
  HOST: '127.0.0.1',
  PORT: String(port),
  DATABASE_URL: url.toString(),
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  LOG_LEVEL: 'warn',
};

const sql = (statement) => {
  // pg lives in the tree (a production dependency of the gateway): the tree is all this script needs.
  const script = `const pg = require(${JSON.stringify(join(tree, 'node_modules', 'pg'))}); const c = new pg.Client({ connectionString: process.argv[1] }); c.connect().then(() => c.query(process.argv[2])).then(() => c.end()).catch((e) => { console.error(e.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script, adminUrl, statement], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${statement}: ${result.stderr}`);
};
const run = (args) => {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: work, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`gateway ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout.trim();
};
const fail = (message) => {
  throw new Error(message);
};

sql(`CREATE DATABASE ${database}`);
let server;
try {
  console.log(`[image] ${run(['migrate'])}`);
  run(['merchants', 'create', 'image-shop']); // a --merchant must exist
  const key = run(['keys', 'create', '--merchant', 'image-shop', '--env', 'production']).split('\n').at(-1);
  const demo = readFileSync(join(tree, 'data', 'demo', 'products.ndjson'), 'utf8').split('\n').slice(0, 50).join('\n');
  writeFileSync(join(work, 'products.ndjson'), `${demo}\n`);
  run(['catalog', 'import', join(work, 'products.ndjson'), '--merchant', 'image-shop']);
  server = spawn(process.execPath, [cli, 'serve'], { cwd: work, env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((done, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      if (/listening on http/.test(out)) done();
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const health = await fetch(`${base}/healthz`);
  const ready = await fetch(`${base}/readyz`);
  const search = await fetch(`${base}/acp/products?q=chair&page_size=3`, { headers: { 'X-ACP-API-Key': key } });
  const body = await search.json();
  const refused = await fetch(`${base}/acp/products`);
  if (health.status !== 200 || ready.status !== 200) fail(`/healthz ${health.status}, /readyz ${ready.status}`);
  if (search.status !== 200 || !(body.total > 0)) fail(`search with the key: ${search.status} ${JSON.stringify(body).slice(0, 200)}`);
  if (refused.status !== 401) fail(`a request without a key: ${refused.status}`);
  server.kill('SIGTERM');
  const code = await new Promise((done) => server.once('exit', done));
  if (code !== 0) fail(`serve exited ${code} on SIGTERM`);
  console.log(`[image] the tree serves: /healthz 200, /readyz 200, search with a production key ${search.status} (${body.total} matches), no key 401, SIGTERM exit 0`);
} finally {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  sql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}
