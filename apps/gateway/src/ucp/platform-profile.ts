/**
 * What a business needs from a platform's profile (overview.md "Negotiation"): the capabilities it
 * declares — their names, for the intersection a response lists — and, from its order capability's
 * config, the URL order webhooks go to. 2026-04-08 keys capabilities by name (an array of entries
 * each); 2026-01-11 lists them as `{name, version, config}`.
 */
import type { AgentProfile } from './profile-fetcher.js';

export interface PlatformFacts {
  capabilities: Set<string>;
  /** `config.webhook_url` of its `dev.ucp.shopping.order` capability, when it declares one. */
  orderWebhookUrl?: string;
}

export const ORDER_CAPABILITY = 'dev.ucp.shopping.order';

type Entry = { name?: unknown; config?: { webhook_url?: unknown } };

function entries(capabilities: unknown): [string, Entry][] {
  if (Array.isArray(capabilities)) {
    return capabilities.flatMap((entry: Entry) => (typeof entry?.name === 'string' ? [[entry.name, entry] as [string, Entry]] : []));
  }
  if (typeof capabilities !== 'object' || capabilities === null) return [];
  return Object.entries(capabilities as Record<string, unknown>).flatMap(([name, list]) =>
    (Array.isArray(list) ? list : [list]).map((entry) => [name, (entry ?? {}) as Entry] as [string, Entry]),
  );
}

export function platformFacts(profile: AgentProfile): PlatformFacts {
  const declared = entries(profile.document.ucp.capabilities);
  const webhook = declared.find(([name, entry]) => name === ORDER_CAPABILITY && typeof entry.config?.webhook_url === 'string');
  return {
    capabilities: new Set(declared.map(([name]) => name)),
    ...(webhook ? { orderWebhookUrl: webhook[1].config!.webhook_url as string } : {}),
  };
}
