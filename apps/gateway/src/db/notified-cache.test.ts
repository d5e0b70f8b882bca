import { describe, expect, it } from 'vitest';
import { NotifiedCache, type NotifiedCacheOptions } from './notified-cache.js';
import type { NotificationHandlers } from './pg-listener.js';

/** A cache over a table the test changes, and a database whose LISTEN the test drives. */
function cacheOver(table: Map<string, string>, options: Partial<NotifiedCacheOptions<string>> = {}) {
  const state = { loads: 0, fail: false, gate: undefined as Promise<void> | undefined };
  const cache = new NotifiedCache<string>({
    channel: 'things_changed',
    load: async (key) => {
      state.loads++;
      const value = table.get(key) ?? 'none';
      if (state.gate) await state.gate;
      if (state.fail) throw new Error('database away');
      return value;
    },
    ...options,
  });
  let handlers: NotificationHandlers | undefined;
  const db = {
    listen: async (channel: string, given: NotificationHandlers) => {
      expect(channel).toBe('things_changed');
      handlers = given;
      return { close: async () => void (handlers = undefined) };
    },
  };
  const notify = (payload: string) => handlers!.onNotify(payload);
  const lose = () => handlers!.onLost!(new Error('connection lost'));
  const restore = () => handlers!.onRestored!();
  return { cache, state, db, notify, lose, restore };
}

const gated = (state: { gate: Promise<void> | undefined }) => {
  let open!: () => void;
  state.gate = new Promise<void>((resolve) => (open = resolve));
  return () => {
    state.gate = undefined;
    open();
  };
};

describe('NotifiedCache', () => {
  it('reads through while it does not hear changes, and holds values once it does', async () => {
    const { cache, state, db } = cacheOver(new Map([['shop', 'v1']]));
    expect(await cache.get('shop')).toBe('v1');
    expect(await cache.get('shop')).toBe('v1');
    expect(state.loads).toBe(2);
    expect(cache.cached('shop')).toBeUndefined();
    await cache.listen(db);
    await Promise.all([cache.get('shop'), cache.get('shop')]); // one load, shared
    await cache.get('shop');
    expect(state.loads).toBe(3);
    expect(cache.peek('shop')).toBe('v1');
    expect(cache.answers('shop')).toBe(true);
  });

  it('drops the key a NOTIFY names, and every key for an empty payload', async () => {
    const table = new Map([
      ['a', 'a1'],
      ['b', 'b1'],
    ]);
    const { cache, db, notify } = cacheOver(table);
    await cache.listen(db);
    await cache.get('a');
    await cache.get('b');
    table.set('a', 'a2').set('b', 'b2');
    notify('a');
    expect(cache.peek('a')).toBeUndefined();
    expect(await cache.get('a')).toBe('a2');
    expect(await cache.get('b')).toBe('b1');
    notify('');
    expect(await cache.get('b')).toBe('b2');
  });

  it('never keeps what a load read when a change was heard while it ran', async () => {
    const table = new Map([['shop', 'old']]);
    const { cache, state, db, notify } = cacheOver(table);
    await cache.listen(db);
    const open = gated(state);
    const stale = cache.get('shop');
    table.set('shop', 'new');
    notify('shop');
    open();
    expect(await stale).toBe('old'); // asked before the change was heard
    expect(cache.peek('shop')).toBeUndefined();
    expect(await cache.get('shop')).toBe('new');
  });

  it('holds nothing while its connection is down, nor keeps a load begun before the loss', async () => {
    const table = new Map([['shop', 'v1']]);
    const { cache, state, db, lose, restore } = cacheOver(table);
    await cache.listen(db);
    const open = gated(state);
    const before = cache.get('shop');
    lose();
    expect(cache.listening).toBe(false);
    expect(cache.cached('shop')).toBeUndefined();
    open();
    await before;
    restore();
    expect(cache.peek('shop')).toBeUndefined();
    expect(cache.answers('shop')).toBe(false);
    const loads = state.loads;
    table.set('shop', 'v2');
    expect(await cache.get('shop')).toBe('v2');
    expect(state.loads).toBe(loads + 1);
  });

  it('keeps no failed load, and waits retryAfterFailureMs before loading through `cached` again', async () => {
    const { cache, state, db } = cacheOver(new Map([['shop', 'v1']]), { retryAfterFailureMs: 60_000 });
    await cache.listen(db);
    state.fail = true;
    await expect(cache.get('shop')).rejects.toThrow('database away');
    expect(cache.cached('shop')).toBeUndefined();
    await expect(cache.get('shop')).rejects.toThrow('database away'); // `get` reads through meanwhile
    state.fail = false;
    expect(await cache.refresh('shop')).toBe('v1');
    expect(cache.answers('shop')).toBe(true);
  });

  it('loads again at once what a change or a restored connection dropped, when eager', async () => {
    const table = new Map([['all', 'v1']]);
    const failures: unknown[] = [];
    const { cache, state, db, notify, lose, restore } = cacheOver(table, { eager: true, onLoadFailed: (error) => failures.push(error) });
    await cache.listen(db);
    await cache.refresh('all');
    table.set('all', 'v2');
    const open = gated(state);
    notify('');
    expect(state.loads).toBe(2);
    expect(cache.peek('all')).toBeUndefined(); // a load is under way: nothing said at once
    expect(cache.answers('all')).toBe(true); // …but it answers, after it
    const waiting = cache.cached('all');
    open();
    expect(await waiting).toBe('v2');
    lose();
    table.set('all', 'v3');
    restore();
    expect(state.loads).toBe(3);
    expect(await cache.cached('all')).toBe('v3');
    expect(failures).toEqual([]);
  });

  it('runs one load of a key at a time when eager: the reloads asked for meanwhile share the next', async () => {
    const table = new Map([['all', 'v1']]);
    const { cache, state, db, notify } = cacheOver(table, { eager: true });
    await cache.listen(db);
    const open = gated(state);
    const first = cache.refresh('all');
    table.set('all', 'v2');
    notify('');
    notify('');
    const mine = cache.refresh('all');
    expect(state.loads).toBe(1);
    open();
    expect(await first).toBe('v1');
    expect(await mine).toBe('v2');
    expect(await cache.cached('all')).toBe('v2');
    expect(state.loads).toBe(2);
  });
});
