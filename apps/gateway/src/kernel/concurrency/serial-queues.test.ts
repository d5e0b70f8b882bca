import { describe, expect, it } from 'vitest';
import { SerialQueues } from './serial-queues.js';

describe('SerialQueues', () => {
  it('runs one key’s work in order, even after a failure, and other keys beside it', async () => {
    const queues = new SerialQueues();
    const log: string[] = [];
    // a1 is held until the test releases it: what runs meanwhile is what does not wait for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const a1 = queues.run('a', async () => { await held; log.push('a1'); throw new Error('a1 failed'); });
    const a2 = queues.run('a', async () => { log.push('a2'); return 2; });
    const b1 = queues.run('b', async () => { log.push('b1'); return 1; });
    await expect(b1).resolves.toBe(1); // another key runs beside a1
    expect(log).toEqual(['b1']); // a2 waits behind a1
    release();
    await expect(a1).rejects.toThrow('a1 failed');
    await expect(a2).resolves.toBe(2);
    expect(log).toEqual(['b1', 'a1', 'a2']);
  });
});
