/**
 * The `ucp` object every UCP answer opens with (overview.md "Capability Declaration in Responses",
 * "Response Capability Selection"): the release, the capabilities active for this resource — the
 * negotiated intersection, relevant to the operation — and, for a checkout, the payment handlers.
 * 2026-04-08 keys capabilities and handlers by name and says `status: "success"`; 2026-01-11 lists
 * capabilities as `{name, version}` and has its handlers in the checkout's `payment.handlers`.
 */
import type { PaymentHandlerDeclaration } from '../payments/payment-provider.js';
import { paymentHandlers2026_04_08 } from './business-profile.js';
import type { UcpVersion } from './ucp-version.js';

export interface EnvelopeOptions {
  /** Include the payment handlers (a checkout answer). */
  payment?: { testHandler: boolean; handlers?: readonly PaymentHandlerDeclaration[] };
}

export function ucpEnvelope(version: UcpVersion, capabilities: readonly string[], options: EnvelopeOptions = {}): Record<string, unknown> {
  if (version === '2026-01-11') return { version, capabilities: capabilities.map((name) => ({ name, version })) };
  return {
    version,
    status: 'success',
    capabilities: Object.fromEntries(capabilities.map((name) => [name, [{ version }]])),
    ...(options.payment ? { payment_handlers: paymentHandlers2026_04_08(options.payment.testHandler, options.payment.handlers) } : {}),
  };
}
