import { MemoryStore, type Store } from 'express-rate-limit';
import { describe, expect, it } from 'vitest';
import { AuthFailureLimiter } from './auth-failure-limiter.js';

describe('AuthFailureLimiter', () => {
  it('blocks an address once it has used up its failures, for the rest of the window, and no other address', async () => {
    const limiter = new AuthFailureLimiter(new MemoryStore(), { limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      expect(await limiter.retryAfter('10.0.0.1')).toBeUndefined();
      await limiter.failed('10.0.0.1');
    }
    const wait = await limiter.retryAfter('10.0.0.1');
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limiter.retryAfter('10.0.0.2')).toBeUndefined();
  });

  it('does nothing with a limit of 0', async () => {
    const limiter = new AuthFailureLimiter(new MemoryStore(), { limit: 0, windowMs: 60_000 });
    for (let i = 0; i < 5; i++) await limiter.failed('10.0.0.1');
    expect(await limiter.retryAfter('10.0.0.1')).toBeUndefined();
  });

  it('fails open while its store fails', async () => {
    const broken: Store = {
      get: () => Promise.reject(new Error('store down')),
      increment: () => Promise.reject(new Error('store down')),
      decrement: () => Promise.reject(new Error('store down')),
      resetKey: () => Promise.reject(new Error('store down')),
    };
    const limiter = new AuthFailureLimiter(broken, { limit: 1, windowMs: 60_000 });
    await expect(limiter.failed('10.0.0.1')).resolves.toBeUndefined();
    expect(await limiter.retryAfter('10.0.0.1')).toBeUndefined();
  });
});
