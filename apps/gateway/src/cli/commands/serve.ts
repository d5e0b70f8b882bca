import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import type { LocalSocket } from '../../ops/local-socket/server.js';
import { out, withIo } from '../output.js';
import { withHostDatabase, type HostDatabase } from '../with-database.js';

/** Why a command line cannot run inside the running gateway, in one line; undefined when it can. */
function remoteRefusal(args: readonly string[]): string | undefined {
  const command = args.filter((word) => !word.startsWith('-')).slice(0, 2).join(' ');
  if (args[0] === 'serve') return `error: a gateway (process ${process.pid}) is already serving this data directory`;
  if (command === 'customers export' && args.some((word) => word === '--out' || word.startsWith('--out='))) {
    return 'error: customers export --out cannot run through the running gateway (the file would be written by its process): leave out --out and redirect stdout';
  }
  return undefined;
}

export function serveCommand(program: Command, runCommand: (args: readonly string[]) => Promise<number>): void {
  program
    .command('serve')
    .description('migrate, then listen on HOST:PORT (seeds the demo merchant on a first development start); on the embedded database, CLI commands run through it')
    .action(async () => {
      const config = loadConfig();
      // Loaded when serving, not for every command's --help.
      const [{ createLogger, flushLogs, wantsPrettyLogs }, { listenLocalSocket }, { checkPortFree, SHUTDOWN_GRACE_MS, startGateway }] = await Promise.all([
        import('../../kernel/logger.js'),
        import('../../ops/local-socket/server.js'),
        import('../../server.js'),
      ]);
      await checkPortFree(config.host, config.port); // before the database opens and the demo is seeded
      const logger = createLogger(config.logLevel, undefined, { pretty: wantsPrettyLogs(config.env) });
      const firstStart: string[] = [];
      const gateway = await startGateway(config, logger, (line) => firstStart.push(line));
      const host: HostDatabase = { db: gateway.db, services: gateway.services, config };
      let socket: LocalSocket | undefined;
      if (gateway.db.kind === 'pglite' && config.dataDir) {
        socket = await listenLocalSocket(config.dataDir, (args, io) => {
          const refusal = remoteRefusal(args);
          if (refusal) {
            io.stderr(`${refusal}\n`);
            return Promise.resolve(1);
          }
          return withIo(io, () => withHostDatabase(host, () => runCommand(args)));
        }, logger);
      }
      // Listening for signals before the ready block is printed: whoever reads it (a supervisor, a test)
      // may stop us at once, and a signal without its handler would kill the process unclean.
      // First signal: stop accepting, let requests in flight finish (up to SHUTDOWN_GRACE_MS), stop
      // the webhook worker after its current attempt, close the database, exit 0. A second: exit 1 at once.
      // The same signal repeated within a second is the same Ctrl-C, delivered to the whole process
      // group and passed on by what runs in front of us (npm start, pnpm): not a second one.
      // Every exit writes the log first, bounded (flushLogs): stderr may be a pipe whose reader is gone.
      let stoppingSince: number | undefined;
      let firstSignal: string | undefined;
      const exit = (code: number, withinMs?: number) => void flushLogs(logger, withinMs).then(() => process.exit(code));
      const stop = (signal: string) => {
        if (stoppingSince !== undefined) {
          if (signal === firstSignal && Date.now() - stoppingSince < 1_000) return;
          logger.warn({ signal }, 'second signal: exiting without waiting');
          return exit(1, 250);
        }
        stoppingSince = Date.now();
        firstSignal = signal;
        logger.info({ signal, graceMs: SHUTDOWN_GRACE_MS }, 'shutting down: no new connections; waiting for requests in flight');
        Promise.all([socket?.close(SHUTDOWN_GRACE_MS)])
          .then(() => gateway.close())
          .then(
            () => {
              logger.info('shut down');
              exit(0);
            },
            (error: unknown) => {
              logger.error({ err: error }, 'shutdown failed');
              exit(1);
            },
          );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      process.on('SIGHUP', stop); // the terminal closed
      const database = gateway.db.kind === 'pglite' ? `embedded database in ${resolve(config.dataDir)}` : 'PostgreSQL';
      // One block, once everything is up: the start-up logs (stderr, written asynchronously) are
      // flushed first, so that they are all before it.
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
      out(
        [
          '',
          `Commerce Gateway (${config.env}) listening on ${gateway.url} with the ${database}`,
          `  API reference: ${gateway.url}/docs`,
          `  Console:       ${gateway.url}/console`,
          ...firstStart.map((line) => `  ${line}`),
          socket ? '  CLI commands (pnpm gateway …) run through this process while it serves' : undefined,
          '  Ctrl-C stops it; logs go to stderr',
          '',
        ].filter((line) => line !== undefined).join('\n'),
      );
      await new Promise(() => {}); // serve until a signal
    });
}
