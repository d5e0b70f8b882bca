/**
 * The payment provider's handlers as UCP offers them, beside the test handler of UCP's samples
 * (below). A checkout offers the merchant's handlers as the provider declares them
 * (PAYMENT_PROVIDER=stripe: `card_tokenized`, its `config.merchant_id` the merchant's connected
 * account; none for a merchant without one). The business profile is the same for every merchant,
 * so it shows the provider's handler without what belongs to one merchant (`merchant_id`): a
 * platform learns which handler it will pay with, and the checkout names the account.
 *
 * Each release shapes the handlers its own way (releases/: `paymentHandlers`).
 */
import type { PaymentHandlerDeclaration } from '../payments/payment-provider.js';
import { stripeHandler } from '../payments/stripe/stripe-handler.js';

/**
 * The test handler of UCP's reference samples (development and sandbox only): `success_token`
 * approves, `fail_token` is declined. Named as the samples and the conformance suite name it.
 */
export const TEST_HANDLER = {
  id: 'mock_payment_handler',
  name: 'dev.ucp.mock_payment',
  spec: 'https://ucp.dev/specs/mock',
  schema: 'https://ucp.dev/schemas/mock.json',
  tokens: ['success_token', 'fail_token'],
} as const;

export const CARD_INSTRUMENT = 'https://ucp.dev/schemas/shopping/types/card_payment_instrument.json';

/** The provider's handlers a business profile shows (no merchant's own settings), by provider name. */
export function profileHandlers(providerName: string): PaymentHandlerDeclaration[] {
  if (providerName !== 'stripe') return [];
  const handler = stripeHandler('', 'sandbox');
  const { merchant_id: _merchant, environment: _environment, ...config } = handler.config;
  return [{ ...handler, config }];
}
