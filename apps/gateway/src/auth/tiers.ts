import type { Principal } from './principal.js';

/** Requests per minute and per day by tier (SPEC.md "Limits"); enterprise keys carry their own. */
export const TIER_LIMITS = {
  sandbox: { perMinute: 60, perDay: 1_000 },
  production: { perMinute: 600, perDay: 100_000 },
} as const;

export interface Limits {
  perMinute: number;
  perDay: number;
}

/** A key's limits: its own rpm/rpd when set (always for enterprise), else its tier's. */
export function limitsOf(principal: Pick<Principal, 'tier' | 'rpm' | 'rpd'>): Limits {
  const base = principal.tier === 'enterprise' ? TIER_LIMITS.production : TIER_LIMITS[principal.tier];
  return { perMinute: principal.rpm ?? base.perMinute, perDay: principal.rpd ?? base.perDay };
}
