/**
 * Hidden properties: a value kept on an object under a symbol, not enumerable (JSON, spreads,
 * `Object.keys` and equality never see it), in place of a WeakMap beside the object.
 *
 * For the objects of one request (a request, a search hit, its product) a WeakMap costs more than
 * it seems: V8's young-generation collector keeps a WeakMap's value alive while its key is young,
 * so every request's values outlived the first collection after the request, were promoted, and
 * made those collections slow (bench:http:memory: at 200,000 products they were most of the p99
 * of `?q=`). A property goes with its object.
 */

/** Gives `target` the hidden property `key` (or a new value of it). */
export function mark<T extends object>(target: T, key: symbol, value: unknown): T {
  Object.defineProperty(target, key, { value, writable: true, configurable: true });
  return target;
}

/** The hidden property `key` of `target` (undefined when it has none). */
export function marked<V>(target: object, key: symbol): V | undefined {
  return (target as Record<symbol, V | undefined>)[key];
}
