import { describe, expect, it } from 'vitest';
import { KEEP_ALIVE_TIMEOUT_MS, listenOn } from './server.js';

describe('listenOn', () => {
  it('keeps idle connections open longer than a load balancer does (60 s), so a balancer never reuses one being closed', async () => {
    const listening = await listenOn((_req, res) => res.end('ok'), '127.0.0.1', 0);
    try {
      expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
      expect(listening.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
      expect(listening.server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
      expect(await (await fetch(listening.url)).text()).toBe('ok');
    } finally {
      await listening.close({ graceMs: 100 });
    }
  });
});
