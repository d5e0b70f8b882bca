/**
 * A worker's loop: runs `poll` again at once while it finds work, else after `intervalMs`
 * (or when nudged); a failed poll is told to `failed` and tried at the next interval. `stop()`
 * resolves once the poll in flight has finished. The webhook delivery worker and the payment
 * worker both run on it.
 *
 *   const loop = new PollingLoop(() => worker.runOnce(), 1000, (error) => log.warn(error));
 *   loop.start(); … loop.nudge(); … await loop.stop();
 */
export class PollingLoop {
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(
    /** One poll: how many items it found (0: sleep until the next interval). */
    private readonly poll: () => Promise<number>,
    private readonly intervalMs: number,
    private readonly failed: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Stops polling and resolves once the poll in flight is done. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    this.running = undefined;
  }

  /** Polls now instead of at the next interval. */
  nudge(): void {
    this.wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let found = 0;
      try {
        found = await this.poll();
      } catch (error) {
        this.failed(error);
      }
      if (found === 0 && !this.stopping) await this.sleep(this.intervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
