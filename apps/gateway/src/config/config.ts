/**
 * Settings from the environment. A bad setting stops start-up with one line
 * that names it (ConfigError); nothing else reads process.env.
 */
import type { PricingOptions } from '../checkout/pricing/default-pricing.js';
import { DEFAULT_FLAT_RATE } from '../checkout/pricing/shipping-provider.js';

export type GatewayEnv = 'development' | 'sandbox' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  env: GatewayEnv;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  searchEngine: 'embedded' | 'meilisearch';
  meilisearchUrl: string | undefined;
  meilisearchApiKey: string | undefined;
  /** Search embeddings: `local` (offline word vectors, the default) or `openai` (an OpenAI-compatible /embeddings endpoint). */
  embedder: 'local' | 'openai';
  embedderUrl: string | undefined;
  embedderApiKey: string | undefined;
  embedderModel: string | undefined;
  embedderDimensions: number | undefined;
  /** Meilisearch hybrid search: the share of semantic ranking, 0 (keywords only) to 1. */
  searchSemanticRatio: number;
  redisUrl: string | undefined;
  /** undefined = every origin is allowed. */
  allowedOrigins: string[] | undefined;
  webhookAllowPrivateTargets: boolean;
  basicAuth: boolean;
  requireRequestSigning: boolean;
  /** Check every response against the contract (a 500 when one breaks it): development's guard. */
  validateResponses: boolean;
  /** Tax table and flat shipping (TAX_RATES, SHIPPING_FLAT_RATE, SHIPPING_FREE_FROM); the contract's defaults where unset. */
  pricing: PricingOptions;
  logLevel: LogLevel;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`${name}=${JSON.stringify(raw)} is not one of ${allowed.join(', ')}`);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name}=${JSON.stringify(env[name])} is not a boolean (use true or false)`);
}

function port(env: Env): number {
  const raw = env.PORT;
  if (raw === undefined || raw === '') return 8080;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 65535) throw new ConfigError(`PORT=${JSON.stringify(raw)} is not a port number (0-65535)`);
  return value;
}

function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
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

function origins(env: Env): string[] | undefined {
  const raw = env.ALLOWED_ORIGINS?.trim();
  if (!raw || raw === '*') return undefined;
  return raw.split(',').map((origin) => {
    const trimmed = origin.trim();
    try {
      const parsed = new URL(trimmed);
      if (parsed.origin !== trimmed.replace(/\/$/, '')) throw new Error();
      return parsed.origin;
    } catch {
      throw new ConfigError(`ALLOWED_ORIGINS has ${JSON.stringify(trimmed)}, which is not an origin like https://shop.example`);
    }
  });
}

function numberIn(env: Env, name: string, min: number, max: number, fallback: number | undefined, integer = false): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new ConfigError(`${name}=${JSON.stringify(env[name])} is not ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return value;
}

/** `TAX_RATES=US-CA=0.0725,GB=0.2`: the whole tax table, rates as fractions. */
function taxRates(env: Env): Record<string, number> | undefined {
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

function pricing(env: Env): PricingOptions {
  const rate = numberIn(env, 'SHIPPING_FLAT_RATE', 0, 1e9, undefined);
  const freeRaw = env.SHIPPING_FREE_FROM?.trim().toLowerCase();
  const freeFrom = freeRaw === 'never' ? null : numberIn(env, 'SHIPPING_FREE_FROM', 0, 1e12, undefined);
  const table = taxRates(env);
  return {
    ...(table ? { taxRates: table } : {}),
    ...(rate !== undefined || freeFrom !== undefined ? { shipping: { rate: rate ?? DEFAULT_FLAT_RATE.rate, freeFrom: freeFrom === undefined ? DEFAULT_FLAT_RATE.freeFrom : freeFrom } } : {}),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const gatewayEnv = oneOf(env, 'GATEWAY_ENV', ['development', 'sandbox', 'production'] as const, 'development');
  const searchEngine = oneOf(env, 'SEARCH_ENGINE', ['embedded', 'meilisearch'] as const, 'embedded');
  const meilisearchUrl = url(env, 'MEILISEARCH_URL', ['http:', 'https:']);
  if (searchEngine === 'meilisearch' && !meilisearchUrl) {
    throw new ConfigError('SEARCH_ENGINE=meilisearch needs MEILISEARCH_URL');
  }
  const embedder = oneOf(env, 'EMBEDDER', ['local', 'openai'] as const, 'local');
  const embedderUrl = url(env, 'EMBEDDER_URL', ['http:', 'https:']);
  if (embedder === 'openai' && !embedderUrl) throw new ConfigError('EMBEDDER=openai needs EMBEDDER_URL (the endpoint that answers POST {model, input})');
  return {
    env: gatewayEnv,
    host: env.HOST?.trim() || '127.0.0.1',
    port: port(env),
    dataDir: env.DATA_DIR?.trim() || '.data',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    searchEngine,
    meilisearchUrl,
    meilisearchApiKey: env.MEILISEARCH_API_KEY || undefined,
    embedder,
    embedderUrl,
    embedderApiKey: env.EMBEDDER_API_KEY || undefined,
    embedderModel: env.EMBEDDER_MODEL?.trim() || undefined,
    embedderDimensions: numberIn(env, 'EMBEDDER_DIMENSIONS', 1, 65_536, undefined, true),
    searchSemanticRatio: numberIn(env, 'SEARCH_SEMANTIC_RATIO', 0, 1, 0.5)!,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    allowedOrigins: origins(env),
    webhookAllowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', gatewayEnv === 'development'),
    basicAuth: flag(env, 'BASIC_AUTH', true),
    requireRequestSigning: flag(env, 'REQUIRE_REQUEST_SIGNING', false),
    validateResponses: flag(env, 'VALIDATE_RESPONSES', gatewayEnv === 'development'),
    pricing: pricing(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
  };
}
