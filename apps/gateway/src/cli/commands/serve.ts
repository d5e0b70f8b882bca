import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { createLogger, wantsPrettyLogs } from '../../logger.js';
import { SHUTDOWN_GRACE_MS, startGateway } from '../../server.js';
import { out } from '../output.js';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('migrate, then listen on HOST:PORT (seeds the demo merchant on a first development start)')
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel, undefined, { pretty: wantsPrettyLogs(config.env) });
      const gateway = await startGateway(config, logger, out);
      const database = gateway.db.kind === 'pglite' ? `embedded database in ${resolve(config.dataDir)}` : 'PostgreSQL';
      out(`Commerce Gateway (${config.env}) listening on ${gateway.url} with the ${database}`);
      // First signal: stop accepting, let requests in flight finish (up to SHUTDOWN_GRACE_MS), stop
      // the webhook worker after its current attempt, close the database, exit 0. A second: exit 1 at once.
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) {
          logger.warn({ signal }, 'second signal: exiting without waiting');
          process.exit(1);
        }
        stopping = true;
        logger.info({ signal, graceMs: SHUTDOWN_GRACE_MS }, 'shutting down: no new connections; waiting for requests in flight');
        gateway.close().then(
          () => {
            logger.info('shut down');
            process.exit(0);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      await new Promise(() => {}); // serve until a signal
    });
}
