/**
 * Work run one after another per key (a merchant): each piece starts once every earlier piece
 * for the same key has settled, whether it succeeded or failed; keys run independently.
 *
 *   const queues = new SerialQueues();
 *   await queues.run(merchantId, () => reload(merchantId));
 */
export class SerialQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => {});
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return next;
  }
}
