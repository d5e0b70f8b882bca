/**
 * One GET of a platform's profile through the gateway's outbound guard (kernel/outbound/safe-target.ts:
 * http(s) only, every resolved address public unless private targets are allowed, the connection
 * pinned to the address that was checked), as overview.md "Fetching" asks: https only (http only
 * where the caller allows it, for local development and tests), redirects never followed, a
 * deadline over the whole exchange, and at most `maxBytes` of body read. Every failure is a
 * UcpError: `invalid_profile_url` (a URL we will not fetch) or `profile_unreachable` (no usable
 * answer).
 */
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { DeliveryError, UnsafeTargetError } from '../kernel/outbound/delivery-errors.js';
import { describeDuration, describeNetworkError, pinnedLookup } from '../kernel/outbound/http-delivery.js';
import { vetTarget, type Resolver } from '../kernel/outbound/safe-target.js';
import { UcpError } from './ucp-error.js';

export interface ProfileRequestPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback and private addresses may be fetched. */
  allowPrivateTargets: boolean;
  /** Plain http profile URLs may be fetched (never in production: "MUST reject profile URLs not served over HTTPS"). */
  allowHttp: boolean;
  timeoutMs: number;
  maxBytes: number;
  resolve?: Resolver;
}

export interface ProfileResponse {
  text: string;
  /** The answer's Cache-Control, when it sent one. */
  cacheControl: string | undefined;
}

const USER_AGENT = 'CommerceGateway-UCP/1.0';
const PUBLIC_ONLY = 'platform profiles are only fetched from public addresses';

export async function requestProfile(url: string, policy: ProfileRequestPolicy): Promise<ProfileResponse> {
  if (!url.startsWith('https://') && !(policy.allowHttp && url.startsWith('http://'))) {
    throw new UcpError('invalid_profile_url', `The profile URL ${url} is not https; profiles are only fetched over HTTPS`);
  }
  const started = Date.now();
  let target;
  try {
    target = await vetTarget(url, { allowPrivate: policy.allowPrivateTargets, publicOnly: PUBLIC_ONLY, dnsTimeoutMs: policy.timeoutMs, ...(policy.resolve ? { resolve: policy.resolve } : {}) });
  } catch (error) {
    if (error instanceof UnsafeTargetError) throw new UcpError('invalid_profile_url', `The profile URL ${url} is refused: ${error.message}`);
    if (error instanceof DeliveryError) throw new UcpError('profile_unreachable', `Unable to fetch the platform profile: ${error.reason}`);
    throw error;
  }
  return new Promise<ProfileResponse>((resolve, reject) => {
    let settled = false;
    let request: ClientRequest | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
      request?.destroy();
    };
    const unreachable = (reason: string) => finish(() => reject(new UcpError('profile_unreachable', `Unable to fetch the platform profile: ${reason}`)));
    // One deadline for the whole fetch: what the DNS answer took is spent.
    const deadline = setTimeout(() => unreachable(`timed out after ${describeDuration(policy.timeoutMs)}`), Math.max(0, policy.timeoutMs - (Date.now() - started)));

    const onResponse = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) return unreachable(`answered ${status} (a redirect; profile fetches never follow one)`);
      if (status < 200 || status >= 300) return unreachable(`answered ${status}`);
      const declared = Number(response.headers['content-length']);
      if (declared > policy.maxBytes) return unreachable(`the profile is larger than ${policy.maxBytes} bytes`);
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > policy.maxBytes) return unreachable(`the profile is larger than ${policy.maxBytes} bytes`);
        chunks.push(chunk);
      });
      response.on('end', () => {
        const cacheControl = response.headers['cache-control'];
        finish(() => resolve({ text: Buffer.concat(chunks).toString('utf8'), cacheControl }));
      });
      response.on('error', (error: NodeJS.ErrnoException) => unreachable(describeNetworkError(error)));
    };

    const { url: parsed } = target;
    request = (parsed.protocol === 'https:' ? https : http).request(
      {
        protocol: parsed.protocol,
        hostname: target.hostname,
        port: parsed.port || undefined,
        path: `${parsed.pathname}${parsed.search}`,
        method: 'GET',
        headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
        lookup: pinnedLookup(target),
        agent: false,
      },
      onResponse,
    );
    request.on('error', (error: NodeJS.ErrnoException) => unreachable(describeNetworkError(error)));
    request.end();
  });
}
