import { describe, expect, it } from 'vitest';
import { KeyDirectory, type DirectoryEntry } from './key-directory.js';
import type { Principal } from './principal.js';

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

const entry = (hash: string, revoked = false): DirectoryEntry => ({ keyHash: hash, revoked, principal: principal(`key_${hash}`) });

/** A directory over a table the test changes; `loads` counts the loads, `gate` holds the next one. */
function directoryOver(table: DirectoryEntry[]) {
  const state = { loads: 0, fail: false, gate: undefined as Promise<void> | undefined };
  const directory = new KeyDirectory(async () => {
    state.loads++;
    const snapshot = [...table];
    if (state.gate) await state.gate;
    if (state.fail) throw new Error('database away');
    return snapshot;
  });
  return { directory, state };
}

describe('KeyDirectory', () => {
  it('answers nothing until it listens and has loaded', async () => {
    const { directory } = directoryOver([entry('h1')]);
    expect(await directory.lookup('h1')).toBe('unavailable');
    directory.setListening(true);
    await directory.refresh();
    expect(directory.answering).toBe(true);
    expect(await directory.lookup('h1')).toMatchObject({ keyId: 'key_h1' });
    expect(directory.known('h1')?.keyId).toBe('key_h1');
  });

  it('tells a valid key, a revoked key and an unknown key apart, from memory', async () => {
    const { directory, state } = directoryOver([entry('ok'), entry('gone', true)]);
    directory.setListening(true);
    await directory.refresh();
    const loads = state.loads;
    expect(await directory.lookup('ok')).toMatchObject({ keyId: 'key_ok' });
    expect(await directory.lookup('gone')).toBe('revoked');
    expect(directory.known('gone')).toBeUndefined();
    for (let i = 0; i < 100; i++) expect(await directory.lookup(`random-${i}`)).toBe('unknown');
    expect(state.loads).toBe(loads);
  });

  it('makes a lookup wait for the load a change started, so a new key counts from the first request after it is heard', async () => {
    const table = [entry('old')];
    const { directory, state } = directoryOver(table);
    directory.setListening(true);
    await directory.refresh();
    table.push(entry('new'));
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    directory.changed();
    expect(directory.known('old')).toBeUndefined(); // a load is under way: nothing is said at once
    const pending = directory.lookup('new');
    open();
    expect(await pending).toMatchObject({ keyId: 'key_new' });
  });

  it('loads again when a change is heard during a load', async () => {
    const table = [entry('a')];
    const { directory, state } = directoryOver(table);
    directory.setListening(true);
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const first = directory.refresh(); // reads the table before the change below
    table.push(entry('b'));
    directory.changed();
    state.gate = undefined;
    open();
    await first;
    expect(await directory.lookup('b')).toMatchObject({ keyId: 'key_b' });
  });

  it('stops answering when its connection is lost or a load fails, and answers again once reloaded', async () => {
    const { directory, state } = directoryOver([entry('k')]);
    directory.setListening(true);
    await directory.refresh();
    directory.setListening(false);
    expect(await directory.lookup('k')).toBe('unavailable');
    directory.setListening(true);
    state.fail = true;
    await expect(directory.refresh()).rejects.toThrow(/database away/);
    expect(await directory.lookup('k')).toBe('unavailable');
    state.fail = false;
    await directory.refresh();
    expect(await directory.lookup('k')).toMatchObject({ keyId: 'key_k' });
  });

  it('does not answer from a load begun before a lost connection', async () => {
    const { directory, state } = directoryOver([entry('k')]);
    directory.setListening(true);
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const load = directory.refresh();
    directory.setListening(false);
    directory.setListening(true);
    open();
    await load;
    expect(directory.answering).toBe(false);
  });
});
