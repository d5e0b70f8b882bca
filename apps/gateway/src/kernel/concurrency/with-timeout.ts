export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Settles like `promise`, or rejects with a TimeoutError after `ms` (the work itself is not cancelled). */
export function withTimeout<T>(promise: Promise<T> | T, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer));
}
