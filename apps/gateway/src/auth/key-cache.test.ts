import { describe, expect, it } from 'vitest';
import { KeyCache } from './key-cache.js';
import type { Principal } from './key-service.js';

const principal = (keyId: string): Principal => ({
  keyId,
  environment: 'development',
  merchantIds: ['m'],
  scopes: ['*'],
  tier: 'sandbox',
  rpm: null,
  rpd: null,
  signingSecret: null,
});

function listeningCache(options: ConstructorParameters<typeof KeyCache>[0] = {}): KeyCache {
  const cache = new KeyCache(options);
  cache.setListening(true);
  return cache;
}

describe('KeyCache', () => {
  it('keeps nothing until it is listening for changes', () => {
    const cache = new KeyCache();
    cache.set('h1', principal('k1'), cache.mark());
    expect(cache.get('h1')).toBeUndefined();
    cache.setListening(true);
    cache.set('h1', principal('k1'), cache.mark());
    expect(cache.get('h1')?.keyId).toBe('k1');
  });

  it('forgets everything when the listening stops', () => {
    const cache = listeningCache();
    cache.set('h1', principal('k1'), cache.mark());
    cache.setListening(false);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.active).toBe(false);
  });

  it('refuses what a read begun before a change found (the read may predate a revocation)', () => {
    const cache = listeningCache();
    const mark = cache.mark();
    cache.clear(); // the revocation's notification arrives while the read is in flight
    cache.set('h1', principal('k1'), mark);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('trusts an entry for its lifetime only', () => {
    let now = 1_000;
    const cache = listeningCache({ ttlMs: 100, now: () => now });
    cache.set('h1', principal('k1'), cache.mark());
    now += 99;
    expect(cache.get('h1')?.keyId).toBe('k1');
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
  });

  it('drops the oldest entry beyond its size', () => {
    const cache = listeningCache({ maxEntries: 2 });
    for (const n of [1, 2, 3]) cache.set(`h${n}`, principal(`k${n}`), cache.mark());
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')?.keyId).toBe('k2');
    expect(cache.get('h3')?.keyId).toBe('k3');
  });

  it('remembers a refused key for its short lifetime, even while not listening', () => {
    let now = 1_000;
    const cache = new KeyCache({ refusalTtlMs: 100, now: () => now });
    cache.refuse('bad', 'Invalid API key: no such key', cache.mark());
    expect(cache.refusal('bad')).toBe('Invalid API key: no such key');
    now += 100;
    expect(cache.refusal('bad')).toBeUndefined();
  });

  it('forgets refusals when keys change (a key created since), and never stores one read before the change', () => {
    const cache = listeningCache();
    cache.refuse('bad', 'no such key', cache.mark());
    cache.clear();
    expect(cache.refusal('bad')).toBeUndefined();
    const mark = cache.mark();
    cache.clear(); // the key's creation is heard while its read is in flight
    cache.refuse('bad', 'no such key', mark);
    expect(cache.refusal('bad')).toBeUndefined();
  });

  it('keeps at most maxRefusals refused keys, the oldest going first', () => {
    const cache = new KeyCache({ maxRefusals: 2 });
    for (const n of [1, 2, 3]) cache.refuse(`h${n}`, `r${n}`, cache.mark());
    expect([cache.refusal('h1'), cache.refusal('h2'), cache.refusal('h3')]).toEqual([undefined, 'r2', 'r3']);
  });
});
