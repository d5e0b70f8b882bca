/**
 * An agent's payment token as PaymentIntent parameters (ACP's delegated payment token, UCP's
 * tokenized instrument):
 * - `spt_…`, a Stripe Shared Payment Token granted to the seller: `payment_method_data[
 *   shared_payment_granted_token]`, as Stripe's current API documents it
 *   (docs.stripe.com/api/payment_intents/create, docs.stripe.com/agentic-commerce/concepts/shared-payment-tokens);
 * - `pm_…`, a PaymentMethod: `payment_method`.
 * Anything else (a legacy `tok_…` card token included: PaymentIntents take no card data in
 * payment_method_data) is no token Stripe could charge here, refused before any call.
 */
export type AgentPaymentMethod = { params: Record<string, unknown> } | { refused: string };

export function agentPaymentMethod(token: string): AgentPaymentMethod {
  if (/^spt_[A-Za-z0-9_]+$/.test(token)) return { params: { payment_method_data: { shared_payment_granted_token: token } } };
  if (/^pm_[A-Za-z0-9_]+$/.test(token)) return { params: { payment_method: token } };
  return { refused: 'The payment token is not one Stripe can charge: give a Stripe shared payment token (spt_…) or PaymentMethod (pm_…)' };
}
