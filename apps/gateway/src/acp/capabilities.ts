/**
 * Capability negotiation (rfc.capability_negotiation.md): the agent says what it can do, the
 * session answers with the intersection of that and what this gateway supports — never more.
 * Unknown values are ignored. Payment handlers are the seller's, from the PaymentProvider.
 */
import type { PaymentHandlerDeclaration } from '../checkout/payment/payment-provider.js';
import type { AcpCapabilities } from './wire/acp-types.js';

type Intervention = NonNullable<NonNullable<AcpCapabilities['interventions']>['supported']>[number];

const KNOWN_INTERVENTIONS: readonly string[] = ['3ds', 'biometric', 'address_verification'] satisfies Intervention[];

const isKnown = (type: string): type is Intervention => KNOWN_INTERVENTIONS.includes(type);

/** The interventions both the agent and we support, in our order. */
export function negotiateInterventions(offered: AcpCapabilities | undefined, supported: readonly string[]): Intervention[] {
  const agent = new Set<string>(offered?.interventions?.supported ?? []);
  return supported.filter(isKnown).filter((type) => agent.has(type));
}

/**
 * The session's `capabilities`: our payment handlers and the negotiated interventions. No
 * extensions are active (none is supported), so `extensions` is left out — an empty array would
 * match both branches of the schema's `oneOf`.
 */
export function sessionCapabilities(handlers: PaymentHandlerDeclaration[], interventions: readonly string[]): AcpCapabilities {
  return {
    payment: { handlers },
    interventions: { supported: interventions.filter(isKnown), required: [], enforcement: 'conditional' },
  };
}
