import { describe, expect, it } from 'vitest';
import { WritePipeline } from './write-pipeline.js';

/** A write that finishes on a later turn of the event loop (no wall clock: only the order matters). */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WritePipeline', () => {
  it('runs writes one at a time, in order, while the caller goes on', async () => {
    const pipeline = new WritePipeline();
    const events: string[] = [];
    let running = 0;
    const write = (name: string) => async () => {
      running++;
      expect(running).toBe(1);
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
      running--;
    };
    await pipeline.submit(write('a'));
    events.push('caller after a');
    await pipeline.submit(write('b'));
    await pipeline.drain();
    expect(events).toEqual(['start a', 'caller after a', 'end a', 'start b', 'end b']);
  });

  it('throws a failed write at the next submit, without starting it', async () => {
    const pipeline = new WritePipeline();
    let started = false;
    await pipeline.submit(async () => {
      await tick();
      throw new Error('batch 1 failed');
    });
    await expect(
      pipeline.submit(async () => {
        started = true;
      }),
    ).rejects.toThrow('batch 1 failed');
    expect(started).toBe(false);
  });

  it('settles a write in flight without throwing, and drain throws its failure', async () => {
    const pipeline = new WritePipeline();
    let finished = false;
    await pipeline.submit(async () => {
      await tick();
      finished = true;
      throw new Error('late');
    });
    await pipeline.settle();
    expect(finished).toBe(true);
    await expect(pipeline.drain()).rejects.toThrow('late');
  });
});
