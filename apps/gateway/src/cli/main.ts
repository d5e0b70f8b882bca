#!/usr/bin/env node
/**
 * The operator CLI: `pnpm gateway <command>`. Results go to stdout; a problem
 * is one line on stderr and a non-zero exit, never a stack trace.
 *
 * On the embedded database while `serve` holds it, the command runs in that
 * gateway, through its local socket (ops/local-socket/) — once it answers, if it is
 * still starting; otherwise here. The
 * commands (and their heavy imports) load only when they run here.
 */
import { dataDir, embeddedDatabase } from '../config/standalone-settings.js';
import { awaitRunningGateway, runThroughGateway } from '../ops/local-socket/client.js';

const args = process.argv.slice(2);

async function main(): Promise<number> {
  const gateway = embeddedDatabase() && args[0] !== 'serve' && !args.includes('--help') && !args.includes('-h') && args.length > 0
    ? await awaitRunningGateway(dataDir(), (text) => process.stderr.write(text))
    : undefined;
  if (gateway) {
    try {
      return await runThroughGateway(gateway, args, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
    } catch (error) {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      return 1;
    }
  }
  if (args.find((arg) => !arg.startsWith('-')) !== 'serve') {
    // A command is over in a second or a few: WebAssembly (PGlite's PostgreSQL, Prisma's query compiler)
    // runs on V8's baseline compiler only. Its optimizing tier would compile PGlite's 9 MB module in the
    // background for a process about to exit, on the cores the command needs (and block it on the
    // compiler's locks): measured on 2 busy cores, a command 2-2.5× faster, and a 20,000-product
    // catalog import faster too. `serve` runs for long and keeps it. Before any WebAssembly is compiled.
    const { setFlagsFromString } = await import('node:v8');
    setFlagsFromString('--liftoff-only');
  }
  const { runCommand } = await import('./program.js');
  return runCommand(args);
}

const code = await main();
// Flush stdout before exiting (a pipe is asynchronous): a script reading our output gets all of it.
process.stdout.write('', () => process.exit(code));
