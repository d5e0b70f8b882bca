/**
 * Appends to the audit log without holding up the answer, and lets a reader wait for what this
 * process has still to write (`settled()`), so that `GET /admin/audit` right after a write shows it.
 * A failed append is logged: the log must never turn an operation's answer into an error.
 */
import type { Logger } from 'pino';
import type { AuditRecord, AuditStore } from './audit-store.js';

export class AuditLog {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly store: AuditStore,
    private readonly logger?: Logger,
  ) {}

  record(entry: AuditRecord): void {
    const write = this.store
      .append(entry)
      .catch((error: unknown) => this.logger?.error({ err: error, audit: entry }, 'admin audit entry could not be written'))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
