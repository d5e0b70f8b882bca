/**
 * Settings from the environment. A bad setting stops start-up with one line
 * that names it (ConfigError); nothing else reads process.env.
 */
import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import { ConfigError } from './config-error.js';
import { stripeSettings, type StripeSettings } from './stripe-settings.js';
import { isStorefrontTemplate } from './storefront-template.js';
import { flag, numberIn, oneOf, origins, port, retrySchedule, taxRates, url, type Env } from './readers.js';
import { dataDir } from './standalone-settings.js';

export { ConfigError };

/** OPS_RATE_LIMIT's default: five probes or scrapes a second from one address (monitors send one every few seconds). */
export const DEFAULT_OPS_RATE_LIMIT = 300;

/** The UCP releases this gateway speaks, oldest first (ucp/ucp-version.ts); UCP_VERSION picks the one /.well-known/ucp describes. */
export const UCP_RELEASES = ['2026-01-11', '2026-04-08'] as const;
export type UcpRelease = (typeof UCP_RELEASES)[number];

export type GatewayEnv = 'development' | 'sandbox' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config extends Partial<StripeSettings> {
  env: GatewayEnv;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections this process's pool may open (DATABASE_POOL_SIZE); see deploy/README.md for sizing against max_connections. */
  databasePoolSize: number;
  /** Checkout's statements prepared once per pooled connection (DATABASE_PREPARED_STATEMENTS; off behind a transaction-mode pooler that does not track them). */
  databasePreparedStatements: boolean;
  /** Whether this process works the webhook outbox (WEBHOOK_WORKER); any number of replicas may. */
  webhookWorker: boolean;
  /** Delays before each automatic webhook attempt (WEBHOOK_RETRY_SCHEDULE); undefined = the default schedule. */
  webhookRetrySchedule: number[] | undefined;
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
  /** Where persisted catalog snapshots are kept (catalog/read-model/catalog-snapshots.ts); undefined: none are kept. */
  catalogSnapshotDir: string | undefined;
  /** Merchants with fewer products get no snapshot (they load from the database fast enough). */
  catalogSnapshotMinProducts: number;
  redisUrl: string | undefined;
  /** undefined = every origin is allowed. */
  allowedOrigins: string[] | undefined;
  /** Origins that may call /admin cross-origin with credentials (ADMIN_CORS_ORIGINS); undefined: none, /admin sends no CORS headers. */
  adminCorsOrigins: string[] | undefined;
  webhookAllowPrivateTargets: boolean;
  basicAuth: boolean;
  requireRequestSigning: boolean;
  /** How far X-Request-Signature's signed time may be from the server clock, in seconds (REQUEST_SIGNATURE_WINDOW). */
  requestSignatureWindowSeconds: number;
  /** Failed authentications allowed per client address and window (AUTH_FAILURE_LIMIT; 0: no limit). */
  authFailureLimit: number;
  /** That window, in milliseconds (AUTH_FAILURE_WINDOW, given in seconds). */
  authFailureWindowMs: number;
  /** Proxy hops in front of the gateway whose X-Forwarded-For names the client (TRUST_PROXY; 0: none). */
  trustProxy: number;
  /** Check every response against the contract (a 500 when one breaks it): development's guard. */
  validateResponses: boolean;
  /** Tax table and flat shipping (TAX_RATES, SHIPPING_FLAT_RATE, SHIPPING_FREE_FROM); the contract's defaults where unset. */
  pricing: PricingSettings;
  /**
   * Who takes payments (PAYMENT_PROVIDER): `test` (development, sandbox), `stripe` (with STRIPE_SECRET_KEY,
   * STRIPE_WEBHOOK_SECRET and, for tests, STRIPE_API_URL: the fields of StripeSettings) or `none` (production's default: refuses).
   */
  paymentProvider: PaymentProviderName;
  /** How long a completion holds its payment's authorization before the payment worker may resolve it (PAYMENT_LEASE_SECONDS, default 60): longer than a PSP call and a commit. */
  paymentLeaseMs: number;
  /** The merchant's order page, `{order_id}` (and `{merchant_id}`) replaced (ORDER_URL_TEMPLATE); undefined: STOREFRONT_URL's /orders/<id> (see storefront/order-permalink.ts). */
  orderUrlTemplate: string | undefined;
  /** This gateway's public origin for agents (PUBLIC_BASE_URL; required in production); undefined: the request's own, never publicly cached. */
  publicBaseUrl: string | undefined;
  /** STOREFRONT_URL: base of the merchant's pages that ACP order permalinks and feed URLs point at; may hold `{merchant_id}`. */
  storefrontUrl: string | undefined;
  /** UCP_VERSION: the UCP release `/.well-known/ucp` describes (default the newest); the other is linked from its `supported_versions`. */
  ucpVersion: UcpRelease;
  /** UCP_SIGNING_KEY: the business's ES256 private key (PEM or JWK, P-256) whose public half the UCP profile publishes; undefined: a key per process outside production, none in production. */
  ucpSigningKey: string | undefined;
  /** UCP_SIMULATION_SECRET: what `POST /testing/simulate-shipping/{order_id}` wants in `Simulation-Secret` (development and sandbox only); undefined: every call is refused 403. */
  ucpSimulationSecret: string | undefined;
  logLevel: LogLevel;
  /** METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** OPS_RATE_LIMIT: requests to /readyz and /metrics per client address and minute (0: no limit). */
  opsRateLimit: number;
}

/**
 * Pricing as configured: the tax table and the flat shipping rate's parts that were set (checkout's
 * pricing fills in the contract's defaults for the rest). Plain data: settings know no domain code.
 */
export interface PricingSettings {
  /** Rates by `COUNTRY` or `COUNTRY-STATE` (TAX_RATES). */
  taxRates?: Record<string, number>;
  /** SHIPPING_FLAT_RATE and SHIPPING_FREE_FROM (null: never free), when set. */
  shipping?: { rate?: number; freeFrom?: number | null };
}

/** The payment providers `PAYMENT_PROVIDER` names (payments/providers.ts builds them). */
export const PAYMENT_PROVIDERS = ['test', 'stripe', 'none'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** `test` in development and sandbox, `none` (refuses to take payments) in production. */
export function defaultPaymentProvider(env: GatewayEnv): PaymentProviderName {
  return env === 'production' ? 'none' : 'test';
}

function pricing(env: Env): PricingSettings {
  const rate = numberIn(env, 'SHIPPING_FLAT_RATE', 0, 1e9, undefined);
  const freeRaw = env.SHIPPING_FREE_FROM?.trim().toLowerCase();
  const freeFrom = freeRaw === 'never' ? null : numberIn(env, 'SHIPPING_FREE_FROM', 0, 1e12, undefined);
  const table = taxRates(env);
  return {
    ...(table ? { taxRates: table } : {}),
    ...(rate !== undefined || freeFrom !== undefined
      ? { shipping: { ...(rate !== undefined ? { rate } : {}), ...(freeFrom !== undefined ? { freeFrom } : {}) } }
      : {}),
  };
}

function paymentProviderSetting(env: Env, gatewayEnv: GatewayEnv): PaymentProviderName {
  const name = oneOf(env, 'PAYMENT_PROVIDER', PAYMENT_PROVIDERS, defaultPaymentProvider(gatewayEnv));
  if (name === 'test' && gatewayEnv === 'production') {
    throw new ConfigError('PAYMENT_PROVIDER=test takes no real money and is refused with GATEWAY_ENV=production; use PAYMENT_PROVIDER=stripe (docs/payments.md)');
  }
  return name;
}

function orderUrlTemplate(env: Env): string | undefined {
  const raw = env.ORDER_URL_TEMPLATE?.trim();
  if (!raw) return undefined;
  if (!raw.includes('{order_id}')) throw new ConfigError('ORDER_URL_TEMPLATE must contain {order_id}, e.g. https://shop.example/orders/{order_id}');
  url({ ORDER_URL_TEMPLATE: raw.replaceAll('{order_id}', 'ord_x').replaceAll('{merchant_id}', 'merchant') }, 'ORDER_URL_TEMPLATE', ['http:', 'https:']);
  return raw;
}

/**
 * PUBLIC_BASE_URL: the origin agents reach this gateway at, as `https://gateway.shop.example` (no
 * path: ACP discovery is a well-known URI at the origin's root; no user, query or fragment).
 * Production needs it: a public document built from a request's Host could be poisoned in a shared
 * cache (see acp/public-origin.ts).
 */
function publicBaseUrl(env: Env, gatewayEnv: GatewayEnv): string | undefined {
  const raw = env.PUBLIC_BASE_URL?.trim();
  if (!raw) {
    if (gatewayEnv !== 'production') return undefined;
    throw new ConfigError("GATEWAY_ENV=production needs PUBLIC_BASE_URL, the origin agents reach this gateway at (e.g. https://gateway.shop.example): public documents are never built from a request's Host");
  }
  const parsed = new URL(url({ PUBLIC_BASE_URL: raw }, 'PUBLIC_BASE_URL', ['http:', 'https:'])!);
  if (parsed.username || parsed.password || parsed.pathname !== '/' || /[?#]/.test(raw)) {
    throw new ConfigError('PUBLIC_BASE_URL is not an origin: write scheme and host only, e.g. https://gateway.shop.example (no path, user, query or fragment)');
  }
  return parsed.origin;
}

function storefront(env: Env): string | undefined {
  const raw = env.STOREFRONT_URL?.trim();
  if (!raw) return undefined;
  if (!isStorefrontTemplate(raw)) {
    throw new ConfigError('STOREFRONT_URL must be an http(s) URL without query, e.g. https://shop.example or https://{merchant_id}.shops.example');
  }
  return raw;
}

/** UCP_SIGNING_KEY: a PKCS#8/SEC1 PEM or a JWK (JSON) of an EC P-256 private key — UCP signs with ES256 only. */
function ucpSigningKey(env: Env): string | undefined {
  const raw = env.UCP_SIGNING_KEY?.trim();
  if (!raw) return undefined;
  let key;
  try {
    key = raw.startsWith('{') ? createPrivateKey({ key: JSON.parse(raw) as JsonWebKey, format: 'jwk' }) : createPrivateKey(raw.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError('UCP_SIGNING_KEY is not a private key: give a PEM (-----BEGIN PRIVATE KEY-----) or a JWK with "d" of an EC P-256 key');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError('UCP_SIGNING_KEY must be an EC P-256 key (UCP signs with ES256)');
  }
  return raw;
}

function ucpSimulationSecret(env: Env): string | undefined {
  const raw = env.UCP_SIMULATION_SECRET;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError('UCP_SIMULATION_SECRET must be 16-256 visible ASCII characters');
  return raw;
}

function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError('METRICS_TOKEN must be 16-256 visible ASCII characters');
  return raw;
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
  const paymentProvider = paymentProviderSetting(env, gatewayEnv);
  return {
    env: gatewayEnv,
    host: env.HOST?.trim() || '127.0.0.1',
    port: port(env),
    dataDir: dataDir(env),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: numberIn(env, 'DATABASE_POOL_SIZE', 1, 1_000, 10, true)!,
    databasePreparedStatements: flag(env, 'DATABASE_PREPARED_STATEMENTS', true),
    webhookWorker: flag(env, 'WEBHOOK_WORKER', true),
    webhookRetrySchedule: retrySchedule(env),
    searchEngine,
    meilisearchUrl,
    meilisearchApiKey: env.MEILISEARCH_API_KEY || undefined,
    embedder,
    embedderUrl,
    embedderApiKey: env.EMBEDDER_API_KEY || undefined,
    embedderModel: env.EMBEDDER_MODEL?.trim() || undefined,
    embedderDimensions: numberIn(env, 'EMBEDDER_DIMENSIONS', 1, 65_536, undefined, true),
    searchSemanticRatio: numberIn(env, 'SEARCH_SEMANTIC_RATIO', 0, 1, 0.5)!,
    catalogSnapshotDir: snapshotDir(env),
    catalogSnapshotMinProducts: numberIn(env, 'CATALOG_SNAPSHOT_MIN_PRODUCTS', 0, 1e9, 10_000, true)!,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    allowedOrigins: origins(env, 'ALLOWED_ORIGINS'),
    adminCorsOrigins: origins(env, 'ADMIN_CORS_ORIGINS'),
    webhookAllowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', gatewayEnv === 'development'),
    basicAuth: flag(env, 'BASIC_AUTH', true),
    requireRequestSigning: flag(env, 'REQUIRE_REQUEST_SIGNING', false),
    requestSignatureWindowSeconds: numberIn(env, 'REQUEST_SIGNATURE_WINDOW', 1, 3600, 300, true)!,
    authFailureLimit: numberIn(env, 'AUTH_FAILURE_LIMIT', 0, 1_000_000, 30, true)!,
    authFailureWindowMs: numberIn(env, 'AUTH_FAILURE_WINDOW', 1, 86_400, 60, true)! * 1000,
    trustProxy: numberIn(env, 'TRUST_PROXY', 0, 10, 0, true)!,
    validateResponses: flag(env, 'VALIDATE_RESPONSES', gatewayEnv === 'development'),
    pricing: pricing(env),
    paymentProvider,
    paymentLeaseMs: numberIn(env, 'PAYMENT_LEASE_SECONDS', 0.1, 3_600, 60)! * 1000,
    ...(paymentProvider === 'stripe' ? stripeSettings(env, gatewayEnv) : {}),
    orderUrlTemplate: orderUrlTemplate(env),
    publicBaseUrl: publicBaseUrl(env, gatewayEnv),
    storefrontUrl: storefront(env),
    ucpVersion: oneOf(env, 'UCP_VERSION', UCP_RELEASES, UCP_RELEASES[UCP_RELEASES.length - 1]!),
    ucpSigningKey: ucpSigningKey(env),
    ucpSimulationSecret: ucpSimulationSecret(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    metricsToken: metricsToken(env),
    opsRateLimit: numberIn(env, 'OPS_RATE_LIMIT', 0, 1_000_000, DEFAULT_OPS_RATE_LIMIT, true)!,
  };
}

/** CATALOG_SNAPSHOT_DIR: a directory, or `off`; by default beside the data directory (`.data-snapshots` for `.data`). */
function snapshotDir(env: Env): string | undefined {
  const value = env.CATALOG_SNAPSHOT_DIR?.trim();
  if (value === 'off') return undefined;
  return value || `${dataDir(env).replace(/[\\/]+$/, '')}-snapshots`;
}
