/**
 * The payment provider's handlers as UCP offers them, beside the test handler of UCP's samples
 * (business-profile.ts). A checkout offers the merchant's handlers as the provider declares them
 * (PAYMENT_PROVIDER=stripe: `card_tokenized`, its `config.merchant_id` the merchant's connected
 * account; none for a merchant without one). The business profile is the same for every merchant,
 * so it shows the provider's handler without what belongs to one merchant (`merchant_id`): a
 * platform learns which handler it will pay with, and the checkout names the account.
 *
 * The two releases shape a handler differently: 2026-01-11 lists `{id, name, version, spec,
 * config_schema, instrument_schemas, config}` in `payment.handlers`; 2026-04-08 keys entries
 * `{id, version, spec, schema, available_instruments, config}` by the handler's name.
 */
import type { PaymentHandlerDeclaration } from '../payments/payment-provider.js';
import { stripeHandler } from '../payments/stripe/stripe-handler.js';

export const CARD_INSTRUMENT = 'https://ucp.dev/schemas/shopping/types/card_payment_instrument.json';

/** The provider's handlers a business profile shows (no merchant's own settings), by provider name. */
export function profileHandlers(providerName: string): PaymentHandlerDeclaration[] {
  if (providerName !== 'stripe') return [];
  const handler = stripeHandler('', 'sandbox');
  const { merchant_id: _merchant, environment: _environment, ...config } = handler.config;
  return [{ ...handler, config }];
}

/** 2026-01-11's `payment.handlers[]` entry of a provider's handler. */
export function handler2026_01_11(handler: PaymentHandlerDeclaration): Record<string, unknown> {
  const { id, name, version, spec, config_schema, config } = handler;
  return { id, name, version, spec, config_schema, instrument_schemas: [CARD_INSTRUMENT], config: { ...config } };
}

/** 2026-04-08's `payment_handlers` registry of a provider's handlers (keyed by name). */
export function handlers2026_04_08(handlers: readonly PaymentHandlerDeclaration[]): Record<string, Record<string, unknown>[]> {
  const registry: Record<string, Record<string, unknown>[]> = {};
  for (const handler of handlers) {
    const brands = Array.isArray(handler.config.accepted_brands) ? handler.config.accepted_brands : undefined;
    (registry[handler.name] ??= []).push({
      id: handler.id,
      version: handler.version,
      spec: handler.spec,
      schema: handler.config_schema,
      available_instruments: [{ type: 'card', ...(brands?.length ? { constraints: { brands } } : {}) }],
      config: { ...handler.config },
    });
  }
  return registry;
}
