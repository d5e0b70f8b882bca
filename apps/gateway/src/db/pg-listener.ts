/**
 * LISTEN on a PostgreSQL channel, on a connection of its own that comes back by itself.
 * NOTIFY is delivered only after the notifying transaction commits. While the connection
 * is down notifications are lost: the listener says so (`onLost`) and, once listening
 * again, says that too (`onRestored`), so that its user can forget what it may have missed.
 */
import pg from 'pg';

export interface NotificationHandlers {
  onNotify(payload: string): void;
  /** The connection dropped (once per loss); notifications are missed until onRestored. */
  onLost?(error: Error): void;
  /** Listening again after a loss. */
  onRestored?(): void;
}

export interface Subscription {
  close(): Promise<void>;
}

const RECONNECT_MS = 1_000;

export async function listenOnPostgres(url: string, channel: string, handlers: NotificationHandlers): Promise<Subscription> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    next.on('notification', (message) => handlers.onNotify(message.payload ?? ''));
    next.on('error', (error) => {
      void next.end().catch(() => {});
      if (client !== next) return; // a failed reconnection attempt: schedule() is already on it
      handlers.onLost?.(error);
      schedule();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) await next.end().catch(() => {});
    else client = next;
  };

  const schedule = () => {
    client = undefined;
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          if (!closed) handlers.onRestored?.();
        },
        () => schedule(),
      );
    }, RECONNECT_MS);
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
