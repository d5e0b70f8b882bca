/**
 * Vets an outgoing HTTP target before anything is sent — a webhook endpoint, the Feed API
 * `catalog push-feed` pushes to, a platform's profile, an embeddings endpoint: http(s) only, and —
 * unless private targets are allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS for the first three, one
 * setting for all; always for the operator's own embeddings endpoint) — every address its host
 * resolves to must be public. The host is resolved once; the outbound client connects to the
 * address returned here (`pinnedLookup` in outbound-client.ts), so a second DNS answer cannot
 * differ from the one that was checked.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DeliveryError, UnsafeTargetError } from './delivery-errors.js';
import { nonPublicClass } from './ip-ranges.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (injectable; tests never reach real DNS for private names). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback, private, link-local… addresses are allowed too. */
  allowPrivate: boolean;
  resolve?: Resolver;
  /** Longest wait for the DNS answer. */
  dnsTimeoutMs?: number;
  /** What a refusal says after the reason; "webhooks are only sent to public addresses" by default. */
  publicOnly?: string;
}

/** A target that passed the checks: connect to `address`, speak to `url` (Host header and TLS SNI = url's host). */
export interface SafeTarget {
  url: URL;
  /** The URL's host name without IPv6 brackets. */
  hostname: string;
  address: string;
  family: 4 | 6;
}

/** Parses a target URL; throws UnsafeTargetError unless it is an absolute http(s) URL. */
export function parseTargetUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError('is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeTargetError(`must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }
  return url;
}

function withTimeout<T>(work: Promise<T>, ms: number, reason: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(reason, { kind: 'dns' })), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function addressesOf(hostname: string, policy: TargetPolicy): Promise<ResolvedAddress[]> {
  const family = isIP(hostname);
  if (family) return [{ address: hostname, family: family === 6 ? 6 : 4 }];
  const resolve = policy.resolve ?? systemResolver;
  const ms = policy.dnsTimeoutMs ?? 10_000;
  let addresses: ResolvedAddress[];
  try {
    addresses = await withTimeout(resolve(hostname), ms, `DNS lookup of ${hostname} timed out`);
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // A server that did not answer (EAI_AGAIN, …) may answer later; a name that does not exist will not.
    const transient = code !== 'ENOTFOUND' && code !== 'ENODATA';
    throw new DeliveryError(`DNS lookup of ${hostname} failed${code ? ` (${code})` : ''}`, { cause: error, kind: 'dns', transient });
  }
  if (!addresses.length) throw new DeliveryError(`DNS lookup of ${hostname} failed (no address)`, { kind: 'dns' });
  return addresses;
}

/**
 * Checks the URL and resolves its host once. Throws UnsafeTargetError (a refusal: the caller's
 * fault) or DeliveryError (DNS gave no usable answer).
 */
export async function vetTarget(raw: string | URL, policy: TargetPolicy): Promise<SafeTarget> {
  const url = parseTargetUrl(raw);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = await addressesOf(hostname, policy);
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const kind = nonPublicClass(address);
      if (!kind) continue;
      const where = isIP(hostname) ? `is a ${kind} address` : `resolves to a ${kind} address`;
      throw new UnsafeTargetError(`host ${hostname} ${where}; ${policy.publicOnly ?? 'webhooks are only sent to public addresses'}`);
    }
  }
  const [first] = addresses as [ResolvedAddress, ...ResolvedAddress[]];
  return { url, hostname, address: first.address, family: first.family };
}
