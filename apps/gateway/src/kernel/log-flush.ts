/**
 * Ending a process whose logs are written asynchronously (pino's sonic-boom destination on
 * stderr) without ever hanging on them.
 *
 * pino flushes such a destination once more on exit, synchronously, and sonic-boom (4.2) retries
 * a failed write there forever: on a pipe whose reader is gone — `npm start | tee gateway.log`
 * stopped by Ctrl-C, which ends tee too — the process hung in its 'exit' handler, its port
 * already closed, deaf to every signal but SIGKILL. So before exiting, flushLogs waits (bounded)
 * until every byte handed to the destination was written; when a write fails or time runs out,
 * the exit-time flush is dropped: what is left of the log is lost, and the process exits.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

interface Tracked {
  /** Bytes handed to the destination and not yet written. */
  pending(): number;
  /** Resolves true once nothing is pending, false on a write error or after `withinMs`. */
  settled(withinMs: number): Promise<boolean>;
}

/** The destination's public surface this module uses (sonic-boom's). */
interface Boom extends DestinationStream {
  flushSync?: () => void;
  on(event: 'write', listener: (bytes: number) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

const tracking = new WeakMap<object, Tracked>();

/** Counts what `destination` was given against its 'write' events (the bytes it wrote). */
export function tracked<D extends DestinationStream>(destination: D): D {
  const boom = destination as unknown as Boom;
  let handed = 0;
  let written = 0;
  const write = boom.write.bind(boom);
  boom.write = (message: string) => {
    handed += Buffer.byteLength(message);
    return write(message);
  };
  boom.on('write', (bytes) => (written += bytes));
  tracking.set(destination, {
    pending: () => handed - written,
    settled: (withinMs) =>
      new Promise((resolve) => {
        if (handed === written) return resolve(true);
        const done = (ok: boolean) => {
          clearTimeout(timer);
          boom.off('write', onWrite);
          boom.off('error', onError);
          resolve(ok);
        };
        const onWrite = () => handed === written && done(true);
        const onError = () => done(false);
        const timer = setTimeout(() => done(false), withinMs);
        boom.on('write', onWrite);
        boom.on('error', onError);
      }),
  });
  return destination;
}

/** Resolves once the logger's destination has written everything it was given — within `withinMs`, whatever happens. */
export async function flushLogs(logger: Logger, withinMs = 1_000): Promise<void> {
  const stream = (logger as unknown as Record<symbol, Boom | undefined>)[pino.symbols.streamSym];
  const tracker = stream && tracking.get(stream);
  if (!stream || !tracker) return; // a synchronous destination (pretty, a test's stream): nothing is held
  if (!(await tracker.settled(withinMs)) && stream.flushSync) stream.flushSync = () => {};
}
