/**
 * The handler ACP's and UCP's discovery show for a merchant paid through Stripe: ACP's tokenized
 * card (rfc.payment_handlers.md §6.3), `psp: stripe`, whose `config.merchant_id` is the merchant's
 * connected account, the account an agent's delegate_payment scopes its token (SPT) to.
 */
import type { PaymentHandlerDeclaration } from '../payment-provider.js';

export const STRIPE_HANDLER_ID = 'card_tokenized';

export function stripeHandler(account: string, environment: 'sandbox' | 'production'): PaymentHandlerDeclaration {
  return {
    id: STRIPE_HANDLER_ID,
    name: 'dev.acp.tokenized.card',
    version: '2026-01-22',
    spec: 'https://acp.dev/handlers/tokenized.card',
    requires_delegate_payment: true,
    requires_pci_compliance: false,
    psp: 'stripe',
    config_schema: 'https://acp.dev/schemas/handlers/tokenized.card/config.json',
    instrument_schemas: ['https://acp.dev/schemas/handlers/tokenized.card/instrument.json'],
    config: {
      merchant_id: account,
      psp: 'stripe',
      accepted_brands: ['visa', 'mastercard', 'amex', 'discover'],
      supports_3ds: true,
      environment,
    },
  };
}
