import { describe, expect, it } from 'vitest';
import { CatalogEvents, catalogEvents, decodeChange } from './catalog-events.js';

describe('the catalog events bus', () => {
  it('is one per database, and two databases never hear each other', async () => {
    const first = {};
    const second = {};
    expect(catalogEvents(first)).toBe(catalogEvents(first));
    expect(catalogEvents(first)).not.toBe(catalogEvents(second));
    expect(catalogEvents(first).source).not.toBe(catalogEvents(second).source);

    const heard: string[] = [];
    catalogEvents(first).on(async (change) => void heard.push(`first:${change.merchantId}`));
    catalogEvents(second).on(async (change) => void heard.push(`second:${change.merchantId}`));
    await catalogEvents(first).changed({ merchantId: 'm1', ids: ['a'] });
    expect(heard).toEqual(['first:m1']);
  });

  it('stops telling a listener once it unsubscribes, and waits for every listener', async () => {
    const bus = new CatalogEvents();
    const heard: string[] = [];
    const off = bus.on(async (change) => {
      await new Promise((resolve) => setImmediate(resolve)); // a listener that finishes later: changed() must wait for it
      heard.push(change.merchantId);
    });
    await bus.changed({ merchantId: 'm1', ids: undefined });
    expect(heard).toEqual(['m1']);
    off();
    await bus.changed({ merchantId: 'm2', ids: undefined });
    expect(heard).toEqual(['m1']);
  });

  it('signs its NOTIFY payloads with its source, so that its own process can skip them', () => {
    const bus = new CatalogEvents();
    const decoded = decodeChange(bus.notice({ merchantId: 'm1', ids: ['p1'], kind: 'stock' }));
    expect(decoded).toEqual({ source: bus.source, merchantId: 'm1', ids: ['p1'], kind: 'stock' });
  });
});
