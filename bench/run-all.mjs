// Runs every `bench:*` script of this package, one after another (`pnpm bench`).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { scripts } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
let failed = 0;
for (const name of Object.keys(scripts).filter((s) => s.startsWith('bench:'))) {
  console.log(`\n=== ${name}`);
  const result = spawnSync('pnpm', ['run', '--silent', name], { stdio: 'inherit', cwd: new URL('.', import.meta.url) });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
