/**
 * Whether a webhook endpoint URL may be added: an absolute http(s) URL, https in production, and —
 * unless private targets are allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS) — a host that is not, and
 * does not resolve to, a loopback, private, link-local… address: the SSRF guard's rules
 * (safe-target.ts), checked when the endpoint is added rather than at its first delivery. A host
 * that does not resolve now passes (DNS may change; every delivery checks its address again), as
 * `gateway webhooks add-endpoint` lets it.
 *
 *   await checkEndpointUrl(body.url, { allowPrivate: false, requireHttps: true }); // InvalidRequestError, param `url`
 */
import { InvalidRequestError } from '../kernel/errors.js';
import { DeliveryError, UnsafeTargetError } from '../kernel/outbound/delivery-errors.js';
import { parseTargetUrl, vetTarget, type Resolver } from '../kernel/outbound/safe-target.js';

export interface EndpointUrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  allowPrivate: boolean;
  /** GATEWAY_ENV=production: events carry buyers' data and are sent over TLS only. */
  requireHttps: boolean;
  resolve?: Resolver;
  dnsTimeoutMs?: number;
}

const refused = (reason: string) => new InvalidRequestError(`url ${reason}`, 'url');

export async function checkEndpointUrl(raw: string, policy: EndpointUrlPolicy): Promise<void> {
  let url: URL;
  try {
    url = parseTargetUrl(raw);
  } catch (error) {
    throw error instanceof UnsafeTargetError ? refused(error.message) : error;
  }
  if (policy.requireHttps && url.protocol !== 'https:') throw refused('must use https in production (webhook events carry buyers\' data)');
  if (policy.allowPrivate) return;
  try {
    await vetTarget(url, { allowPrivate: false, dnsTimeoutMs: policy.dnsTimeoutMs ?? 5_000, ...(policy.resolve ? { resolve: policy.resolve } : {}) });
  } catch (error) {
    if (error instanceof UnsafeTargetError) throw refused(error.message);
    if (error instanceof DeliveryError) return;
    throw error;
  }
}
