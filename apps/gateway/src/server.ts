import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config/config.js';
import { openDatabase, type Database } from './db/database.js';
import { seedDemo } from './demo-seed.js';
import { buildServices } from './services.js';

export class ListenError extends Error {
  override name = 'ListenError';
}

export interface RunningGateway {
  server: Server;
  db: Database;
  url: string;
  close(): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (error.code === 'EADDRINUSE') reject(new ListenError(`PORT ${port} is already in use on ${host} (set PORT to another port)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new ListenError(`HOST ${host} is not an address of this machine`));
      else if (error.code === 'EACCES') reject(new ListenError(`no permission to listen on ${where}`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}

/** migrate, seed the demo in development, listen. `print` receives the lines meant for the operator. */
export async function startGateway(config: Config, logger: Logger, print: (line: string) => void = () => {}): Promise<RunningGateway> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await db.migrate();
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
    const services = buildServices(db);
    if (config.env === 'development') {
      const seeded = await seedDemo(db, services.keys);
      if (seeded) {
        print(`Seeded merchant "demo" with ${seeded.products} products.`);
        print(`Development API key for merchant "demo" (shown once, stored hashed): ${seeded.key}`);
      }
    }
    const app = createApp({ config, logger, ...services });
    const server = createServer(app);
    await listen(server, config.host, config.port);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    return {
      server,
      db,
      url,
      async close() {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
