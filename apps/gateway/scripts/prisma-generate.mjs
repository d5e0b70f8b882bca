// `prisma generate` without Prisma's download host: the CLI insists on a native
// schema engine binary it never uses for generation (which is WASM), so point it
// at any existing executable. See STACK.md / apps/gateway/README.md.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [prismaCli, 'generate'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});
process.exit(result.status ?? 1);
