import { describe, expect, it } from 'vitest';
import { startInOrder, together, type Component } from './lifecycle.js';

function recorder() {
  const events: string[] = [];
  const component = (name: string, failing: { start?: boolean; stop?: boolean } = {}): Component<string | undefined> => ({
    name,
    start() {
      events.push(`start ${name}`);
      if (failing.start) throw new Error(`${name} did not start`);
    },
    stop(options) {
      events.push(`stop ${name}${options ? ` (${options})` : ''}`);
      if (failing.stop) throw new Error(`${name} did not stop`);
    },
  });
  return { events, component };
}

describe('startInOrder', () => {
  it('starts in order and stops in reverse, handing the stop its options', async () => {
    const { events, component } = recorder();
    const running = await startInOrder([component('db'), component('cache'), component('http')]);
    await running.stop('grace');
    expect(events).toEqual(['start db', 'start cache', 'start http', 'stop http (grace)', 'stop cache (grace)', 'stop db (grace)']);
  });

  it('stops what started, in reverse, when a later start fails, and throws that failure', async () => {
    const { events, component } = recorder();
    await expect(startInOrder([component('db'), component('cache', { stop: true }), component('http', { start: true }), component('worker')])).rejects.toThrow(
      'http did not start',
    );
    expect(events).toEqual(['start db', 'start cache', 'start http', 'stop cache', 'stop db']);
  });

  it('stops every component even when one fails to stop, then throws the first failure; a second stop waits for the first', async () => {
    const { events, component } = recorder();
    const running = await startInOrder([component('db'), component('cache', { stop: true }), component('http', { stop: true })]);
    const stopping = running.stop(undefined);
    await expect(stopping).rejects.toThrow('http did not stop');
    await expect(running.stop(undefined)).rejects.toThrow('http did not stop');
    expect(events).toEqual(['start db', 'start cache', 'start http', 'stop http', 'stop cache', 'stop db']);
  });
});

describe('together', () => {
  it('starts its components in order and stops them at the same time', async () => {
    const events: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const running = await startInOrder([
      { name: 'db', stop: () => void events.push('stop db') },
      together('serving', [
        { name: 'http', start: () => void events.push('start http'), stop: async () => { events.push('stop http'); await slow; events.push('http stopped'); } },
        { name: 'worker', start: () => void events.push('start worker'), stop: () => { events.push('stop worker'); release(); } },
      ]),
    ]);
    await running.stop();
    expect(events).toEqual(['start http', 'start worker', 'stop http', 'stop worker', 'http stopped', 'stop db']);
  });

  it('stops those of its components that started when a later one fails to start', async () => {
    const events: string[] = [];
    await expect(
      startInOrder([
        { name: 'db', stop: () => void events.push('stop db') },
        together('serving', [
          { name: 'http', stop: () => void events.push('stop http') },
          { name: 'worker', start: () => { throw new Error('no worker'); }, stop: () => void events.push('stop worker') },
        ]),
      ]),
    ).rejects.toThrow('no worker');
    expect(events).toEqual(['stop http', 'stop db']);
  });
});
