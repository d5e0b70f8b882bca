/**
 * Appends to the audit log without holding up the answer, and lets a reader wait for what this
 * process has still to write (`settled()`), so that `GET /admin/audit` right after a write shows it
 * (and so that shutdown closes the database only once every entry is in).
 *
 * An entry is never lost to what the request carried: its text is made storable first
 * (storable-entry.ts: a NUL or an unpaired surrogate in a path, an id or a body, which PostgreSQL
 * refuses, is written as visible escapes; overlong values are cut). Each entry is its own
 * statement, outside any transaction of the operation it records, so an operation that rolls back
 * or fails keeps its entry. A write the database refuses for a passing reason (no connection
 * within the pool's wait, a restart) is tried again with backoff for about half a minute; only
 * then is it logged at error level with the whole entry, so that the log still holds it. The log
 * never turns an operation's answer into an error.
 */
import type { Logger } from 'pino';
import type { AuditRecord, AuditStore } from './audit-store.js';
import { storableEntry } from './storable-entry.js';

/** Waits between attempts: about 31 s in all. */
const RETRY_DELAYS_MS = [100, 400, 1_000, 2_500, 5_000, 10_000, 12_000];

export class AuditLog {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly store: AuditStore,
    private readonly logger?: Logger,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  record(entry: AuditRecord): void {
    const write = this.append(storableEntry(entry)).finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async append(entry: AuditRecord): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.store.append(entry);
        if (attempt > 0) this.logger?.info({ requestId: entry.requestId, attempts: attempt + 1 }, 'admin audit entry written after a retry');
        return;
      } catch (error) {
        const delay = this.retryDelaysMs[attempt];
        if (delay === undefined) {
          this.logger?.error({ err: error, audit: entry }, 'admin audit entry could not be written');
          return;
        }
        if (attempt === 0) this.logger?.warn({ err: error, requestId: entry.requestId }, 'admin audit entry not written yet; trying again');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
