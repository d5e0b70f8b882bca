import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { createLogger } from '../../logger.js';
import { startGateway } from '../../server.js';
import { out } from '../output.js';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('migrate, then listen on HOST:PORT (seeds the demo merchant on a first development start)')
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      const gateway = await startGateway(config, logger, out);
      const database = gateway.db.kind === 'pglite' ? `embedded database in ${resolve(config.dataDir)}` : 'PostgreSQL';
      out(`Commerce Gateway (${config.env}) listening on ${gateway.url} with the ${database}`);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) process.exit(1);
        stopping = true;
        logger.info({ signal }, 'shutting down');
        gateway.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      await new Promise(() => {}); // serve until a signal
    });
}
