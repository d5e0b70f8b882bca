/**
 * The business's signing keys, whose public halves the UCP profile publishes in `signing_keys`
 * (overview.md "Key Discovery"; signatures.md: ES256 on P-256, "Key Rotation").
 *
 * - UCP_SIGNING_KEY (a PEM or JWK private key, checked by config.ts) wins when set: one key, published and signing.
 * - Otherwise the keys live in PostgreSQL (`ucp_signing_keys`, ucp/webhooks/signing-key-store.ts), so that every
 *   replica publishes the same keys and signs with the same one: `SigningKeyRing.load()` reads them (and
 *   `start()` re-reads them every 30 s, so that a rotation reaches running replicas). Published: every key not
 *   retired yet; signing: the newest whose activation time has come. `gateway ucp keys rotate` adds a key —
 *   published at once, signing after `--activate-in` (default 1 h: the profile's cache lifetime, so platforms
 *   know the key before the first signature) — and retires the previous ones after `--overlap` (default 7 days,
 *   the spec's minimum grace period); `gateway ucp keys retire KID` drops a compromised key at once.
 * - An empty table in development and sandbox receives the key this process generated at start, so a
 *   cluster agrees on the first key without setup; in production an empty table publishes nothing (and nothing
 *   is signed) until an operator runs `gateway ucp keys rotate`.
 * - Before `load()` (and for an app built without a database): the setting, or outside production a key
 *   generated for this process.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { GatewayEnv } from '../config/config.js';
import type { SigningKeyStore, StoredSigningKey } from './webhooks/signing-key-store.js';

/** A public key as the profile's `signing_keys` lists it. */
export interface PublicSigningJwk {
  kid: string;
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  use: 'sig';
  alg: 'ES256';
}

export interface SigningKeys {
  /** What the profile publishes (empty: no key). */
  published: PublicSigningJwk[];
  /** The key this process signs with, and its `kid`; undefined when none is published. */
  signer?: { kid: string; privateKey: KeyObject };
  /** Where the key came from, for the start-up log. */
  source: 'setting' | 'generated' | 'none' | 'database';
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url) of an EC public key: a `kid` that names the key itself. */
export function thumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

function parsePrivateKey(raw: string): KeyObject {
  return raw.startsWith('{') ? createPrivateKey({ key: JSON.parse(raw) as JsonWebKey, format: 'jwk' }) : createPrivateKey(raw.replace(/\\n/g, '\n'));
}

function keysOf(privateKey: KeyObject, source: SigningKeys['source']): SigningKeys {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const { x, y } = jwk as { x: string; y: string };
  const kid = thumbprint({ crv: 'P-256', kty: 'EC', x, y });
  return { published: [{ kid, kty: 'EC', crv: 'P-256', x, y, use: 'sig', alg: 'ES256' }], signer: { kid, privateKey }, source };
}

export function loadSigningKeys(options: { signingKey: string | undefined; env: GatewayEnv }): SigningKeys {
  if (options.signingKey) return keysOf(parsePrivateKey(options.signingKey), 'setting');
  if (options.env === 'production') return { published: [], source: 'none' };
  return keysOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'generated');
}

/** A fresh P-256 key: its `kid` (thumbprint) and its private JWK as stored. */
export function newSigningKey(): { kid: string; privateJwk: string } {
  return storableKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
}

function storableKey(privateKey: KeyObject): { kid: string; privateJwk: string } {
  const jwk = privateKey.export({ format: 'jwk' });
  return { kid: thumbprint({ crv: 'P-256', kty: 'EC', x: jwk.x!, y: jwk.y! }), privateJwk: JSON.stringify(jwk) };
}

export const SIGNING_KEYS_REFRESH_MS = 30_000;

/** The state of the keys at `now`: what is published, and which key signs. */
export function keysAt(rows: readonly StoredSigningKey[], now: Date): Pick<SigningKeys, 'published' | 'signer'> {
  const live = rows.filter((row) => !row.retiresAt || row.retiresAt > now);
  const newestFirst = [...live].sort((a, b) => b.activatesAt.getTime() - a.activatesAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime());
  const active = newestFirst.find((row) => row.activatesAt <= now);
  const published = newestFirst.map((row) => keysOf(parsePrivateKey(row.privateJwk), 'database').published[0]!);
  return { published, signer: active ? keysOf(parsePrivateKey(active.privateJwk), 'database').signer : undefined };
}

/**
 * The keys of a running gateway (see the module comment). `published` is one array, updated in place,
 * so that the discovery document built over it always shows the keys of the last load.
 *
 *   const ring = new SigningKeyRing({ signingKey: config.ucpSigningKey, env: config.env, store: new SigningKeyStore(db) });
 *   await ring.load(); ring.start(); … ring.stop();
 */
export class SigningKeyRing implements SigningKeys {
  readonly published: PublicSigningJwk[] = [];
  signer: SigningKeys['signer'];
  source: SigningKeys['source'];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: { signingKey: string | undefined; env: GatewayEnv; store: SigningKeyStore; now?: () => Date; onError?: (error: unknown) => void }) {
    const initial = loadSigningKeys(options);
    this.published.push(...initial.published);
    this.signer = initial.signer;
    this.source = initial.source;
  }

  /** Reads the keys from the database (storing this process's generated key when there is none yet, outside production). */
  async load(): Promise<void> {
    if (this.source === 'setting') return;
    const now = this.options.now?.() ?? new Date();
    let rows = await this.options.store.list();
    if (rows.length === 0 && this.options.env !== 'production' && this.signer) {
      await this.options.store.insertFirst(storableKey(this.signer.privateKey), now);
      rows = await this.options.store.list();
    }
    if (rows.length === 0) return;
    const state = keysAt(rows, now);
    this.published.splice(0, this.published.length, ...state.published);
    this.signer = state.signer;
    this.source = 'database';
  }

  /** Re-reads the keys every `intervalMs` (a failed read keeps the keys held and is reported to onError). */
  start(intervalMs = SIGNING_KEYS_REFRESH_MS): void {
    if (this.timer || this.source === 'setting') return;
    this.timer = setInterval(() => this.load().catch((error: unknown) => this.options.onError?.(error)), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
