/**
 * One full, compacting garbage collection, asked for once a large catalog is loaded. Loading a
 * catalog of hundreds of thousands of products leaves hundreds of MB of garbage behind (the batches
 * read, a snapshot's sections once copied in); V8 collects it only when it next needs room or has
 * been idle a while, so a replica just started would hold it for minutes. Measured at a million
 * products (bench:http:memory): RSS 2,268 MB five seconds after listening, 1,967 MB once queries had
 * made V8 collect. `gc` is not exposed without --expose-gc: the flag is set here and the function
 * taken from a new context, the one way to reach it in a process started without the flag.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Collects all garbage now; answers how long it took (undefined: this runtime would not). */
export function compactHeap(): number | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const started = performance.now();
    gc();
    return performance.now() - started;
  } catch {
    return undefined;
  }
}
