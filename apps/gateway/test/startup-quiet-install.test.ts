/**
 * A newcomer's first `npm start` prints only the gateway's own lines: scripts/lib/workspace.mjs
 * runs pnpm's install and turbo's build `quiet` — their output (engine warnings, progress,
 * notices) kept in order and written to stderr only when they fail. Here pnpm is a stand-in
 * script (npm_execpath, as when run through pnpm) that prints what pnpm prints and exits as told;
 * the real first start was checked on a fresh clone (docs/operating.md, "Start-up").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';

const workspace = pathToFileURL(join(packageRoot, '..', '..', 'scripts', 'lib', 'workspace.mjs')).href;

/** A stand-in pnpm: prints a warning on stdout and a notice on stderr, interleaved, then exits with its first argument. */
function fakePnpm(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-fake-pnpm-')), 'pnpm.cjs');
  writeFileSync(
    path,
    [
      "const fs = require('node:fs');",
      "fs.writeSync(1, '[WARN] Unsupported engine for vitest@5.1.1: wanted: {\"node\":\">=22\"}\\n');",
      "fs.writeSync(2, 'Agent skills awaiting approval: @tanstack/react-table.\\n');",
      "fs.writeSync(1, 'Done in 9.2s using pnpm v12.21.0\\n');",
      'process.exit(Number(process.argv[2]));',
    ].join('\n'),
  );
  return path;
}

function runPnpm(exitCode: number, quiet: boolean) {
  const driver = `import(${JSON.stringify(workspace)}).then((w) => process.exit(w.pnpm([${JSON.stringify(String(exitCode))}], { quiet: ${quiet} })))`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', driver], { env: { ...process.env, npm_execpath: fakePnpm() }, encoding: 'utf8' });
}

describe('scripts/lib/workspace.mjs runs pnpm quietly', () => {
  it('prints nothing when pnpm succeeds', () => {
    const run = runPnpm(0, true);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('');
  });

  it('prints all of pnpm\'s output, in order, on stderr when it fails, and passes its exit code on', () => {
    const run = runPnpm(3, true);
    expect(run.status).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('[WARN] Unsupported engine for vitest@5.1.1: wanted: {"node":">=22"}\nAgent skills awaiting approval: @tanstack/react-table.\nDone in 9.2s using pnpm v12.21.0\n');
  });

  it('leaves the output alone when not asked to be quiet (pnpm run by scripts/pnpm.mjs)', () => {
    const run = runPnpm(0, false);
    expect(run.stdout).toContain('Unsupported engine');
    expect(run.stderr).toContain('Agent skills awaiting approval');
  });

  it('switches pnpm\'s notices off for a direct `pnpm install` too: no update notice, no agent skills awaiting approval', () => {
    const settings = readFileSync(join(packageRoot, '..', '..', 'pnpm-workspace.yaml'), 'utf8');
    expect(settings).toMatch(/^updateNotifier: false$/m);
    expect(settings).toMatch(/^permissions:\n {2}"@tanstack\/react-table":\n {4}skills: false$/m);
  });
});
