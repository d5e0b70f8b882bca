/**
 * One GET of a platform's profile through the gateway's outbound client
 * (kernel/outbound/outbound-client.ts: http(s) only, every resolved address public unless private
 * targets are allowed, the connection pinned to the address that was checked), as overview.md
 * "Fetching" asks: https only (http only where the caller allows it, for local development and
 * tests), redirects never followed, one deadline over the whole exchange (DNS included), and at
 * most `maxBytes` of body read. Every failure is a UcpError: `invalid_profile_url` (a URL we will
 * not fetch) or `profile_unreachable` (no usable answer).
 */
import { DeliveryError, UnsafeTargetError } from '../kernel/outbound/delivery-errors.js';
import type { OutboundClient } from '../kernel/outbound/outbound-client.js';
import { UcpError } from './ucp-error.js';

export interface ProfileRequestPolicy {
  /** Plain http profile URLs may be fetched (never in production: "MUST reject profile URLs not served over HTTPS"). */
  allowHttp: boolean;
  timeoutMs: number;
  maxBytes: number;
}

export interface ProfileResponse {
  text: string;
  /** The answer's Cache-Control, when it sent one. */
  cacheControl: string | undefined;
}

const USER_AGENT = 'CommerceGateway-UCP/1.0';
/** What the guard's refusal says after the reason. */
export const PROFILES_PUBLIC_ONLY = 'platform profiles are only fetched from public addresses';

export async function requestProfile(client: OutboundClient, url: string, policy: ProfileRequestPolicy): Promise<ProfileResponse> {
  if (!url.startsWith('https://') && !(policy.allowHttp && url.startsWith('http://'))) {
    throw new UcpError('invalid_profile_url', `The profile URL ${url} is not https; profiles are only fetched over HTTPS`);
  }
  const unreachable = (reason: string) => new UcpError('profile_unreachable', `Unable to fetch the platform profile: ${reason}`);
  let response;
  try {
    response = await client.request(url, {
      method: 'GET',
      headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
      timeoutMs: policy.timeoutMs,
      maxResponseBytes: policy.maxBytes,
      // Only a profile is read: any other answer is refused by its status.
      read: (status) => (status >= 200 && status < 300 ? 'whole' : 'none'),
    });
  } catch (error) {
    if (error instanceof UnsafeTargetError) throw new UcpError('invalid_profile_url', `The profile URL ${url} is refused: ${error.message}`);
    if (error instanceof DeliveryError) throw unreachable(error.kind === 'too-large' ? `the profile is larger than ${policy.maxBytes} bytes` : error.reason);
    throw error;
  }
  const { status } = response;
  if (status >= 300 && status < 400) throw unreachable(`answered ${status} (a redirect; profile fetches never follow one)`);
  if (status < 200 || status >= 300) throw unreachable(`answered ${status}`);
  const cacheControl = response.headers['cache-control'];
  return { text: response.body.toString('utf8'), cacheControl };
}
