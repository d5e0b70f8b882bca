/**
 * Hears catalog changes committed by other processes (an operator's `catalog import` while
 * the gateway runs on PostgreSQL): LISTEN catalog_changed on a connection of its own. The
 * importer sends NOTIFY in its transaction, so the news arrives only after the commit.
 * When the connection drops it reconnects and reports `undefined` (= anything may have
 * changed while it was away: rebuild everything).
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { decodeChange } from './catalog-events.js';

export interface ChangeListener {
  close(): Promise<void>;
}

export async function listenForCatalogChanges(
  url: string,
  ownSource: string,
  onChange: (merchantId: string | undefined) => void,
  logger: Logger,
): Promise<ChangeListener> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    next.on('notification', (message) => {
      const change = message.payload ? decodeChange(message.payload) : undefined;
      if (change && change.source !== ownSource) onChange(change.merchantId);
    });
    next.on('error', (error) => {
      logger.warn({ err: error }, 'catalog change listener lost its connection; reconnecting');
      void next.end().catch(() => {});
      schedule();
    });
    await next.connect();
    await next.query('LISTEN catalog_changed');
    client = next;
  };

  const schedule = () => {
    if (closed || retry) return;
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => onChange(undefined),
        (error: unknown) => {
          logger.warn({ err: error }, 'catalog change listener could not reconnect; trying again');
          schedule();
        },
      );
    }, 1_000);
    retry.unref();
  };

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
