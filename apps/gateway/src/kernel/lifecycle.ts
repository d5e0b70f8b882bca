/**
 * A process's parts started in order and stopped in reverse, written once as a list rather than
 * as a start-up and its shutdowns by hand:
 *
 * - a start that fails stops what had started before it (in reverse; their own failures are
 *   dropped), then throws its error;
 * - stopping stops every part that started, in reverse, each even when one before it failed (the
 *   first failure is thrown once all have been asked); stopping again waits for the first stop.
 *
 *   let db: Database;
 *   const running = await startInOrder([
 *     { name: 'database', start: async () => void (db = await openDatabase(…)), stop: () => db.close() },
 *     together('serving', [{ name: 'http', start: …, stop: … }, { name: 'worker', start: …, stop: … }]),
 *   ]);
 *   await running.stop();
 *
 * `StopOptions` are handed to every stop (a shutdown's grace period, say).
 */
export interface Component<StopOptions = void> {
  /** What it is, for whoever reads the list. */
  name: string;
  start?(): Promise<void> | void;
  stop?(options: StopOptions): Promise<void> | void;
}

export interface Running<StopOptions = void> {
  /** Stops every component started, the last first. */
  stop(options?: StopOptions): Promise<void>;
}

async function stopInReverse<O>(started: readonly Component<O>[], options: O): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const component of [...started].reverse()) {
    try {
      await component.stop?.(options);
    } catch (error) {
      failures.push(error);
    }
  }
  return failures;
}

export async function startInOrder<O = void>(components: readonly Component<O>[]): Promise<Running<O>> {
  const started: Component<O>[] = [];
  for (const component of components) {
    try {
      await component.start?.();
    } catch (error) {
      await stopInReverse(started, undefined as O);
      throw error;
    }
    started.push(component);
  }
  let stopping: Promise<void> | undefined;
  return {
    stop(options) {
      stopping ??= stopInReverse(started, options as O).then((failures) => {
        if (failures.length) throw failures[0];
      });
      return stopping;
    },
  };
}

/**
 * Components started one after another (a failure stops those of them that started) and stopped
 * at the same time: an HTTP server draining while the workers finish their current task.
 */
export function together<O>(name: string, components: readonly Component<O>[]): Component<O> {
  return {
    name,
    async start() {
      await startInOrder(components); // a failure stops those of them that started
    },
    async stop(options) {
      const results = await Promise.allSettled(components.map(async (component) => component.stop?.(options)));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
