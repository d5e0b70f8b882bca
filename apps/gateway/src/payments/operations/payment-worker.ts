/**
 * Backs up the requests that move money: polls due payment operations (several processes safe: row
 * locks with SKIP LOCKED, next_attempt_at moved forward as a lease), and for each
 * - a pending capture, cancel or refund: asks the PSP again with the same key, records the outcome;
 * - an authorization whose lease expired unsettled (its completion crashed): captures it when its
 *   session's order exists, else releases it (payment-operations.ts: resolveOrphan).
 * After a restart nothing is captured twice (the keys) and nothing authorized is forgotten.
 *
 *   const worker = new PaymentWorker(operations, { logger });
 *   worker.start();
 *   …
 *   await worker.stop(); // waits for the operations in flight
 */
import type { Logger } from 'pino';
import { PollingLoop } from '../../kernel/concurrency/polling-loop.js';
import type { PaymentOperation } from './payment-operation.js';
import type { PaymentOperations } from './payment-operations.js';

export interface PaymentWorkerOptions {
  logger?: Logger | undefined;
  /** Pause between polls when nothing was due. */
  pollIntervalMs?: number;
  /** Operations claimed, and run concurrently, per poll. */
  batchSize?: number;
  now?: () => Date;
}

export class PaymentWorker {
  private readonly loop: PollingLoop;
  private readonly now: () => Date;

  constructor(
    private readonly operations: PaymentOperations,
    private readonly options: PaymentWorkerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.loop = new PollingLoop(() => this.runOnce(), options.pollIntervalMs ?? 1000, (error) =>
      options.logger?.warn({ err: error }, 'payment worker could not poll the operations'),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and resolves once the operations in flight are recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Claims the due operations once and works them all; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.operations.store.claimDue(this.now(), this.operations.leaseEnd(), this.options.batchSize ?? 10);
    const results = await Promise.allSettled(claimed.map((operation) => this.work(operation)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') this.options.logger?.warn({ err: result.reason, operationId: claimed[index]!.id }, 'payment operation failed; retried when its lease expires');
    });
    return claimed.length;
  }

  /** Runs until nothing is due now (tests: let the worker settle). */
  async drain(): Promise<void> {
    while ((await this.runOnce()) > 0);
  }

  private async work(operation: PaymentOperation): Promise<void> {
    if (operation.kind === 'authorize') await this.operations.resolveOrphan(operation);
    else {
      const recorded = await this.operations.run(operation);
      this.options.logger?.info({ operationId: operation.id, kind: operation.kind, attempt: operation.attempts + 1, state: recorded.state }, 'payment operation');
    }
  }
}
