import { describe, expect, it } from 'vitest';
import { SerialQueues } from './serial-queues.js';

const tick = () => new Promise((done) => setTimeout(done, 5));

describe('SerialQueues', () => {
  it('runs one key’s work in order, even after a failure, and other keys beside it', async () => {
    const queues = new SerialQueues();
    const log: string[] = [];
    const a1 = queues.run('a', async () => { await tick(); log.push('a1'); throw new Error('a1 failed'); });
    const a2 = queues.run('a', async () => { log.push('a2'); return 2; });
    const b1 = queues.run('b', async () => { log.push('b1'); return 1; });
    await expect(a1).rejects.toThrow('a1 failed');
    await expect(a2).resolves.toBe(2);
    await expect(b1).resolves.toBe(1);
    expect(log).toEqual(['b1', 'a1', 'a2']);
  });
});
