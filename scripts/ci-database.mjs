#!/usr/bin/env node
// Creates or drops a database on a PostgreSQL server, with the client the gateway already
// depends on (no psql needed):  node scripts/ci-database.mjs create|drop ADMIN_URL NAME
import { createRequire } from 'node:module';

const require = createRequire(new URL('../apps/gateway/package.json', import.meta.url));
const pg = require('pg');

const [action, adminUrl, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !adminUrl || !/^[a-z0-9_]+$/.test(name ?? '')) {
  console.error('usage: ci-database.mjs create|drop ADMIN_URL NAME');
  process.exit(2);
}
const client = new pg.Client({ connectionString: adminUrl });
await client.connect();
try {
  await client.query(action === 'create' ? `CREATE DATABASE ${name}` : `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
} finally {
  await client.end();
}
