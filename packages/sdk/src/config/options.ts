import type { ApiVersion } from '../generated/types.gen.js';
import { zApiVersion } from '../generated/zod.gen.js';
import { ConfigurationError } from '../errors/errors.js';
import { resolveEnvironment, type Environment } from './environment.js';

/** What the SDK reports after every HTTP answer (see `onResponse`). */
export interface ResponseEvent {
  /** The contract's operationId, e.g. `createCheckoutSession`. */
  operation: string;
  method: string;
  url: string;
  status: number;
  /** 0 for the first try, then 1, 2, … for retries. */
  attempt: number;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  /** True when the gateway replayed a stored answer for this Idempotency-Key (`Idempotent-Replayed: true`). */
  replayed: boolean;
  headers: Headers;
  durationMs: number;
}

export interface CommerceGatewayOptions {
  /** Secret API key: `sk_dev_…` (development), `sk_sandbox_…` (sandbox) or `sk_live_…` (production). Sent as `X-ACP-API-Key`. */
  apiKey: string;
  /** The gateway's URL. Optional in development (default `http://127.0.0.1:8080`, what `pnpm start` serves); required otherwise. */
  baseUrl?: string;
  /** Checked against the key's prefix; inferred from it when absent. */
  environment?: Environment;
  /** `API-Version` header; default: the newest version of the contract this SDK was generated from. */
  apiVersion?: ApiVersion | (string & {});
  /** `Merchant-Id` header, for keys that serve several merchants. */
  merchantId?: string;
  /** Milliseconds to wait for each attempt's answer (default 30 000). */
  timeout?: number;
  /** Retries after the first attempt for network errors, timeouts, 409 in-flight, 429 and 5xx (default 2). */
  maxRetries?: number;
  /**
   * The key's signing secret (keys created with `--signing-secret` or `--signing v2`): adds `X-Request-Signature`
   * (v2: method, path and query, Merchant-Id, body and time) and SPEC's `Signature` and `Timestamp` (body only) to every request.
   */
  signingSecret?: string;
  /** A fetch implementation (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Validate every 2xx body against the contract's schema (default true): contract drift becomes an `UnexpectedResponseError`. */
  validateResponses?: boolean;
  /** Called after every HTTP answer, retries included — for logs and metrics. Must not throw. */
  onResponse?: (event: ResponseEvent) => void;
}

export interface ResolvedOptions {
  apiKey: string;
  baseUrl: string;
  environment: Environment;
  apiVersion: string;
  merchantId: string | undefined;
  timeout: number;
  maxRetries: number;
  signingSecret: string | undefined;
  fetch: typeof fetch | undefined;
  validateResponses: boolean;
  onResponse: ((event: ResponseEvent) => void) | undefined;
}

/** The newest API version of the contract the SDK was generated from (its default). */
export const DEFAULT_API_VERSION: string = zApiVersion.parse(undefined);
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
/** ky's (and setTimeout's) ceiling. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export function checkTimeout(value: unknown, name = 'timeout'): number {
  if (typeof value !== 'number' || !(value > 0) || value > MAX_TIMEOUT_MS) {
    throw new ConfigurationError(`${name} must be a number of milliseconds between 1 and ${MAX_TIMEOUT_MS}, got ${String(value)}`);
  }
  return value;
}

export function checkMaxRetries(value: unknown, name = 'maxRetries'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 10) {
    throw new ConfigurationError(`${name} must be an integer from 0 to 10, got ${String(value)}`);
  }
  return value;
}

function optionalString(options: CommerceGatewayOptions, name: 'merchantId' | 'signingSecret' | 'apiVersion'): string | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigurationError(`${name} must be a non-empty string when given`);
  return value;
}

function resolveBaseUrl(baseUrl: unknown, environment: Environment): string {
  if (baseUrl === undefined) {
    if (environment === 'development') return DEFAULT_BASE_URL;
    throw new ConfigurationError(`baseUrl is required for a ${environment} key: pass the URL of your ${environment} gateway`);
  }
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new ConfigurationError(`baseUrl ${JSON.stringify(baseUrl)} is not an absolute URL (e.g. https://gateway.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigurationError(`baseUrl must be http:// or https://, got ${url.protocol}`);
  if (url.search || url.hash) throw new ConfigurationError('baseUrl must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

/** Checks the options at construction, so that a mistake fails before any request. */
export function resolveOptions(options: CommerceGatewayOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('new CommerceGateway({ apiKey }) needs an options object');
  const { apiKey } = options;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new ConfigurationError('apiKey is required: pass the secret key your operator gave you (sk_dev_…, sk_sandbox_… or sk_live_…)');
  }
  const environment = resolveEnvironment(apiKey, options.environment);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new ConfigurationError('fetch must be a function');
  if (options.onResponse !== undefined && typeof options.onResponse !== 'function') throw new ConfigurationError('onResponse must be a function');
  return {
    apiKey,
    baseUrl: resolveBaseUrl(options.baseUrl, environment),
    environment,
    apiVersion: optionalString(options, 'apiVersion') ?? DEFAULT_API_VERSION,
    merchantId: optionalString(options, 'merchantId'),
    timeout: options.timeout === undefined ? DEFAULT_TIMEOUT_MS : checkTimeout(options.timeout),
    maxRetries: options.maxRetries === undefined ? DEFAULT_MAX_RETRIES : checkMaxRetries(options.maxRetries),
    signingSecret: optionalString(options, 'signingSecret'),
    fetch: options.fetch,
    validateResponses: options.validateResponses ?? true,
    onResponse: options.onResponse,
  };
}
