import type { Logger } from 'pino';
import type { IdempotencyStore } from './idempotency-store.js';

/** Deletes expired idempotency records every `intervalMs` (hourly by default); returns the stop function. */
export function startExpirySweeper(store: IdempotencyStore, logger: Logger, intervalMs = 3_600_000): () => void {
  const sweep = () =>
    store.purgeExpired().then(
      (count) => count && logger.info({ count }, 'expired idempotency keys deleted'),
      (error: unknown) => logger.warn({ err: error }, 'idempotency sweep failed'),
    );
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  void sweep();
  return () => clearInterval(timer);
}
