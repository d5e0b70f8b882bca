/**
 * Overlaps an import's two halves: while the database writes batch k, JavaScript reads,
 * validates and embeds batch k+1 (measured before: the importer sat idle ~60% of the time
 * waiting on the database, and the database idled while JavaScript embedded). Writes stay
 * in order and one at a time — they share the transaction's one connection — so at most two
 * batches are held: the one being written and the one being prepared.
 *
 * A failed write is kept and thrown by the next `submit` or by `drain`; `settle` waits for
 * the write in flight without throwing, so that the transaction is never rolled back (or
 * committed) while one of its statements is still running.
 */
export class WritePipeline {
  private inFlight: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  /** Waits for the previous write (throwing its error, if it failed), then starts `write` without waiting for it. */
  async submit(write: () => Promise<void>): Promise<void> {
    await this.drain();
    this.inFlight = write().catch((error: unknown) => {
      this.failure = { error };
    });
  }

  /** Waits for the write in flight; throws the first failure. */
  async drain(): Promise<void> {
    await this.inFlight;
    if (this.failure) throw this.failure.error;
  }

  /** Waits for the write in flight, ignoring its outcome (before rolling back for another error). */
  async settle(): Promise<void> {
    await this.inFlight;
  }
}
