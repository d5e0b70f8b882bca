/**
 * Resolves on the event loop's next turn (after the I/O and timers that wait): awaited before each
 * long synchronous step of a large catalog's load or change (seconds each at a million products),
 * so that requests and the database pool's connections are served between them.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
