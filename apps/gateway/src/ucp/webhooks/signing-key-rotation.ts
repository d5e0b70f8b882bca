/**
 * Operators' view of the UCP signing keys (`gateway ucp keys …`): the keys with their state, a
 * rotation, and the retirement of a compromised key. Rotation follows signatures.md "Key
 * Rotation": the new key is published at once and signs from `activateInMs` later (platforms
 * cache the profile: give them time to see it), the keys it replaces stay published `overlapMs`
 * after that (the spec's grace period: at least 7 days), then leave the profile.
 */
import { keysAt, newSigningKey } from '../signing-keys.js';
import type { SigningKeyStore } from './signing-key-store.js';

export const DEFAULT_ACTIVATE_IN_MS = 60 * 60 * 1000; // the profile's public max-age (profile-origin.ts)
export const DEFAULT_KEY_OVERLAP_MS = 7 * 24 * 60 * 60 * 1000;

export type KeyState = 'signing' | 'published' | 'scheduled' | 'retired';

export interface SigningKeySummary {
  kid: string;
  state: KeyState;
  activatesAt: Date;
  retiresAt: Date | null;
  createdAt: Date;
}

export async function listSigningKeys(store: SigningKeyStore, now = new Date()): Promise<SigningKeySummary[]> {
  const rows = await store.list();
  const { signer } = keysAt(rows, now);
  return rows.map((row) => ({
    kid: row.kid,
    state: row.retiresAt && row.retiresAt <= now ? 'retired' : row.kid === signer?.kid ? 'signing' : row.activatesAt > now ? 'scheduled' : 'published',
    activatesAt: row.activatesAt,
    retiresAt: row.retiresAt,
    createdAt: row.createdAt,
  }));
}

export async function rotateSigningKey(
  store: SigningKeyStore,
  { activateInMs = DEFAULT_ACTIVATE_IN_MS, overlapMs = DEFAULT_KEY_OVERLAP_MS, now = new Date() }: { activateInMs?: number; overlapMs?: number; now?: Date } = {},
): Promise<{ kid: string; activatesAt: Date; previousRetireAt: Date }> {
  for (const [name, value] of [['activate-in', activateInMs], ['overlap', overlapMs]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be ≥ 0 ms, got ${value}`);
  }
  const key = newSigningKey();
  const activatesAt = new Date(now.getTime() + activateInMs);
  const previousRetireAt = new Date(activatesAt.getTime() + overlapMs);
  await store.rotate({ ...key, activatesAt }, previousRetireAt, now);
  return { kid: key.kid, activatesAt, previousRetireAt };
}
