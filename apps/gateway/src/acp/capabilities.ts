/**
 * Capability negotiation (rfc.capability_negotiation.md): the agent says what it can do, the
 * session answers with the intersection of that and what this gateway supports — never more.
 * Unknown values are ignored. Payment handlers are the seller's, from the PaymentProvider.
 */
import type { PaymentHandlerDeclaration } from '../checkout/payment/payment-provider.js';
import type { AcpCapabilities } from './wire/acp-types.js';

const KNOWN_INTERVENTIONS = ['3ds', 'biometric', 'address_verification'] as const;

/** The interventions both the agent and we support, in our order. */
export function negotiateInterventions(offered: AcpCapabilities | undefined, supported: readonly string[]): string[] {
  const agent = new Set(offered?.interventions?.supported ?? []);
  return supported.filter((type) => agent.has(type) && (KNOWN_INTERVENTIONS as readonly string[]).includes(type));
}

/**
 * The session's `capabilities`: our payment handlers and the negotiated interventions. No
 * extensions are active (none is supported), so `extensions` is left out — an empty array would
 * match both branches of the schema's `oneOf`.
 */
export function sessionCapabilities(handlers: PaymentHandlerDeclaration[], interventions: readonly string[]) {
  return {
    payment: { handlers },
    interventions: { supported: [...interventions], required: [] as string[], enforcement: 'conditional' as const },
  };
}
