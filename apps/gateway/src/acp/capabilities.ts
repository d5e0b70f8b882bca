/**
 * Capability negotiation (rfc.capability_negotiation.md): the agent says what it can do, the
 * session answers with the intersection of that and what this gateway supports — never more.
 * Unknown values are ignored. Payment handlers are the seller's, from the PaymentProvider.
 * Extensions (rfc.extensions.md) are negotiated the same way: the one supported is `discount`.
 */
import type { PaymentHandlerDeclaration } from '../payments/payment-provider.js';
import type { AcpCapabilities } from './wire/acp-types.js';
import { declaresDiscounts, DISCOUNT_DECLARATION, DISCOUNT_EXTENSION } from './wire/discounts.js';

type Intervention = NonNullable<NonNullable<AcpCapabilities['interventions']>['supported']>[number];

const KNOWN_INTERVENTIONS: readonly string[] = ['3ds', 'biometric', 'address_verification'] satisfies Intervention[];

const isKnown = (type: string): type is Intervention => KNOWN_INTERVENTIONS.includes(type);

/** The interventions both the agent and we support, in our order. */
export function negotiateInterventions(offered: AcpCapabilities | undefined, supported: readonly string[]): Intervention[] {
  const agent = new Set<string>(offered?.interventions?.supported ?? []);
  return supported.filter(isKnown).filter((type) => agent.has(type));
}

/**
 * The extensions active for a new session (rfc.extensions.md §4): those the agent declares in
 * `capabilities.extensions` that we support — `discount` (wire/discounts.ts), also activated
 * later by an agent that sends `discounts` (acp-checkout.ts).
 */
export function negotiateExtensions(offered: AcpCapabilities | undefined): string[] {
  return declaresDiscounts(offered) ? [DISCOUNT_EXTENSION] : [];
}

/**
 * The session's `capabilities`: our payment handlers, the negotiated interventions, and the
 * active extensions as declarations (`discount`: DISCOUNT_DECLARATION). With none active
 * `extensions` is left out — an empty array would match both branches of the schema's `oneOf`.
 */
export function sessionCapabilities(handlers: PaymentHandlerDeclaration[], interventions: readonly string[], extensions: readonly string[] = []): AcpCapabilities {
  const active = extensions.includes(DISCOUNT_EXTENSION) ? [{ ...DISCOUNT_DECLARATION, extends: [...DISCOUNT_DECLARATION.extends!] }] : [];
  return {
    payment: { handlers },
    interventions: { supported: interventions.filter(isKnown), required: [], enforcement: 'conditional' },
    ...(active.length ? { extensions: active } : {}),
  };
}
