/**
 * Readers of one setting each: the raw text checked and turned into its value, or a ConfigError
 * whose one line names the setting and what it should look like.
 */
import { ConfigError } from './config-error.js';

/** The environment settings are read from. */
export type Env = Record<string, string | undefined>;

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`${name}=${JSON.stringify(raw)} is not one of ${allowed.join(', ')}`);
}

export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name}=${JSON.stringify(env[name])} is not a boolean (use true or false)`);
}

export function port(env: Env): number {
  const raw = env.PORT;
  if (raw === undefined || raw === '') return 8080;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 65535) throw new ConfigError(`PORT=${JSON.stringify(raw)} is not a port number (0-65535)`);
  return value;
}

export function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.map((p) => p.replace(/:$/, '://')).join(' or ')}`);
  }
  return raw;
}

/** ALLOWED_ORIGINS (`*` or unset: every origin) or ADMIN_CORS_ORIGINS (unset: none; never `*`, the admin API answers with credentials). */
export function origins(env: Env, name: 'ALLOWED_ORIGINS' | 'ADMIN_CORS_ORIGINS'): string[] | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw === '*') {
    if (name === 'ALLOWED_ORIGINS') return undefined;
    throw new ConfigError(`${name} cannot be *: list the origins that may call the admin API with an operator's session, e.g. https://ops.shop.example`);
  }
  return raw.split(',').map((origin) => {
    const trimmed = origin.trim();
    try {
      const parsed = new URL(trimmed);
      if (parsed.origin !== trimmed.replace(/\/$/, '')) throw new Error();
      return parsed.origin;
    } catch {
      throw new ConfigError(`${name} has ${JSON.stringify(trimmed)}, which is not an origin like https://shop.example`);
    }
  });
}

export function numberIn(env: Env, name: string, min: number, max: number, fallback: number | undefined, integer = false): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new ConfigError(`${name}=${JSON.stringify(env[name])} is not ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return value;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `WEBHOOK_RETRY_SCHEDULE=0,5s,5m,30m,2h`: the delay before each attempt, from the previous one; its length is the number of attempts. */
export function retrySchedule(env: Env): number[] | undefined {
  const raw = env.WEBHOOK_RETRY_SCHEDULE?.trim();
  if (!raw) return undefined;
  const delays = raw.split(',').map((entry) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(entry);
    if (!match) throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE has ${JSON.stringify(entry.trim())}; write delays like 0,5s,5m,30m,2h (ms, s, m or h)`);
    return Math.round(Number(match[1]) * DURATION_UNITS[match[2] ?? 'ms']!);
  });
  if (delays.length > 50) throw new ConfigError('WEBHOOK_RETRY_SCHEDULE has more than 50 attempts');
  return delays;
}

/** `TAX_RATES=US-CA=0.0725,GB=0.2`: the whole tax table, rates as fractions. */
export function taxRates(env: Env): Record<string, number> | undefined {
  const raw = env.TAX_RATES?.trim();
  if (!raw) return undefined;
  const table: Record<string, number> = {};
  for (const entry of raw.split(',')) {
    const match = /^\s*([A-Za-z]{2}(?:-[A-Za-z0-9]{1,3})?)\s*=\s*([0-9.]+)\s*$/.exec(entry);
    const rate = Number(match?.[2]);
    if (!match || !(rate >= 0 && rate <= 1)) {
      throw new ConfigError(`TAX_RATES has ${JSON.stringify(entry.trim())}; write entries like US-CA=0.0725,GB=0.2 (rates as fractions from 0 to 1)`);
    }
    table[match[1]!.toUpperCase()] = rate;
  }
  return table;
}
