/**
 * What production runs until a real PSP adapter is configured: no handler is offered and every
 * payment is refused with an error that says so (the test provider never takes live orders).
 */
import { ServiceUnavailableError } from '../kernel/errors.js';
import type { MoveOutcome, OpenedPayment, PaymentHandlerDeclaration, PaymentOutcome, PaymentProvider, PaymentState } from './payment-provider.js';

export class PaymentProviderNotConfiguredError extends ServiceUnavailableError {
  readonly reason = 'payment_provider_not_configured';
}

export const NOT_CONFIGURED_MESSAGE =
  'No payment provider is configured: this gateway cannot take payments in production until a PSP adapter is plugged in (PAYMENT_PROVIDER; see docs/agents.md, "Payments")';

export const REFUNDS_NOT_CONFIGURED_MESSAGE =
  'No payment provider is configured: this gateway cannot pay money back until a PSP adapter is plugged in (PAYMENT_PROVIDER; see docs/agents.md, "Payments")';

export class UnconfiguredPaymentProvider implements PaymentProvider {
  readonly name = 'none';
  readonly interventions = [] as const;

  async handlers(): Promise<PaymentHandlerDeclaration[]> {
    return [];
  }

  async openPayment(): Promise<OpenedPayment | null> {
    return null;
  }

  async updatePayment(): Promise<void> {}

  async authorize(): Promise<PaymentOutcome> {
    throw new PaymentProviderNotConfiguredError(NOT_CONFIGURED_MESSAGE);
  }

  async capture(): Promise<MoveOutcome> {
    throw new PaymentProviderNotConfiguredError(NOT_CONFIGURED_MESSAGE);
  }

  async cancel(): Promise<MoveOutcome> {
    throw new PaymentProviderNotConfiguredError(NOT_CONFIGURED_MESSAGE);
  }

  async refund(): Promise<MoveOutcome> {
    throw new PaymentProviderNotConfiguredError(REFUNDS_NOT_CONFIGURED_MESSAGE);
  }

  async retrieve(): Promise<PaymentState | null> {
    return null;
  }
}
