/**
 * LISTEN on PostgreSQL channels, every channel of a process on one connection of its own that
 * comes back by itself (a replica holds one listening connection, whatever hears changes: keys,
 * catalog, shipping profiles, discounts). NOTIFY is delivered only after the notifying transaction
 * commits. While the connection is down notifications are lost: every listener is told
 * (`onLost`) and, once listening again, told that too (`onRestored`), so that it can forget what
 * it may have missed.
 *
 *   const listener = new PostgresListener(url);
 *   const subscription = await listener.listen('catalog_changed', { onNotify: (payload) => … });
 */
import type pg from 'pg';

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

/** A channel name as an SQL identifier (what node-postgres's escapeIdentifier does; pg itself loads only when a connection opens). */
const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

const listenStatement = (channel: string) => `LISTEN ${identifier(channel)}`;

export class PostgresListener {
  private readonly channels = new Map<string, Set<NotificationHandlers>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly url: string) {}

  /** Listens on `channel` until the subscription is closed; rejects when the connection cannot be made now. */
  async listen(channel: string, handlers: NotificationHandlers): Promise<Subscription> {
    if (this.closed) throw new Error('the listener is closed');
    let listeners = this.channels.get(channel);
    const added = !listeners;
    if (!listeners) this.channels.set(channel, (listeners = new Set()));
    listeners.add(handlers);
    try {
      if (!this.client) await this.connect();
      else if (added) await this.client.query(listenStatement(channel));
    } catch (error) {
      this.remove(channel, handlers);
      throw error;
    }
    return { close: () => this.unlisten(channel, handlers) };
  }

  /** Stops every channel and the connection. */
  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private remove(channel: string, handlers: NotificationHandlers): boolean {
    const listeners = this.channels.get(channel);
    if (!listeners?.delete(handlers) || listeners.size > 0) return false;
    this.channels.delete(channel);
    return true;
  }

  private async unlisten(channel: string, handlers: NotificationHandlers): Promise<void> {
    if (!this.remove(channel, handlers)) return;
    if (this.channels.size === 0) {
      clearTimeout(this.retry);
      this.retry = undefined;
      const client = this.client;
      this.client = undefined;
      await client?.end().catch(() => {});
    } else {
      await this.client?.query(`UNLISTEN ${identifier(channel)}`).catch(() => {});
    }
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const { default: pg } = await import('pg');
    const next = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    next.on('notification', (message) => {
      for (const handlers of this.channels.get(message.channel) ?? []) handlers.onNotify(message.payload ?? '');
    });
    next.on('error', (error) => {
      void next.end().catch(() => {});
      if (this.client !== next) return; // a failed reconnection attempt: schedule() is already on it
      this.client = undefined;
      for (const handlers of this.everyListener()) handlers.onLost?.(error);
      this.schedule();
    });
    try {
      await next.connect();
      for (const channel of this.channels.keys()) await next.query(listenStatement(channel));
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (this.closed || this.channels.size === 0) await next.end().catch(() => {});
    else this.client = next;
  }

  private schedule(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().then(
        () => {
          if (this.closed || !this.client) return;
          for (const handlers of this.everyListener()) handlers.onRestored?.();
        },
        () => this.schedule(),
      );
    }, RECONNECT_MS);
    this.retry.unref();
  }

  private *everyListener(): Iterable<NotificationHandlers> {
    for (const listeners of [...this.channels.values()]) yield* [...listeners];
  }
}

/** LISTEN on one channel, on a connection of its own (a process that hears nothing else). */
export async function listenOnPostgres(url: string, channel: string, handlers: NotificationHandlers): Promise<Subscription> {
  const listener = new PostgresListener(url);
  try {
    await listener.listen(channel, handlers);
  } catch (error) {
    await listener.close();
    throw error;
  }
  return { close: () => listener.close() };
}
