import type { GatewayEnv } from '../config/config.js';
import type { SignatureScheme } from './request-signature-v2.js';

/** A key's rate-limit tier (tiers.ts gives each its per-minute and per-day budget). */
export type Tier = 'sandbox' | 'production' | 'enterprise';

/** Who is calling: what an authenticated request carries to everything after the edge. */
export interface Principal {
  keyId: string;
  environment: GatewayEnv;
  merchantIds: string[];
  scopes: string[];
  tier: Tier;
  rpm: number | null;
  rpd: number | null;
  signingSecret: string | null;
  /** Which signatures the signing secret may make: `v2` refuses SPEC's body-only `Signature` (absent: `body`). */
  signatureScheme?: SignatureScheme;
}
