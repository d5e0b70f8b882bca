/**
 * A completion's payment instrument as the payment port's instruction. The instrument names one of
 * the handlers the checkout offers (its merchant's, payment-handlers.ts) and carries a credential;
 * UCP's test handler (`mock_payment_handler`, offered in development and sandbox while the test
 * provider runs) is the test provider's face, its credentials made test tokens
 * (test-credentials.ts). A merchant offered no handler at all is refused by the domain, which says
 * why (503), not here.
 */
import type { PaymentHandlerDeclaration, PaymentInstruction } from '../../payments/payment-provider.js';
import { TEST_HANDLER } from '../payment-handlers.js';
import { UcpError } from '../ucp-error.js';
import { providerToken, testToken } from './test-credentials.js';

/** A payment instrument as a completion sends it (2026-04-08 `payment.instruments[]`, 2026-01-11 `payment_data`). */
export interface UcpInstrument {
  id?: string;
  handler_id?: string;
  type?: string;
  credential?: { type?: string; token?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface HandlerOffer {
  /** The merchant's handlers, read once the instrument names one. */
  handlers: () => Promise<PaymentHandlerDeclaration[]>;
  /** The test handler is offered: the test provider runs, outside production. */
  testHandler: boolean;
}

export async function instructionOf(instrument: UcpInstrument, offer: HandlerOffer): Promise<PaymentInstruction> {
  if (!instrument.handler_id || !instrument.credential) {
    throw new UcpError('invalid_request', 'Pay with a payment instrument that names its handler_id and carries a credential', 400, {}, { path: '$.payment.instruments[0]' });
  }
  const handlers = await offer.handlers();
  const testHandler = instrument.handler_id === TEST_HANDLER.id && offer.testHandler && handlers[0];
  if (!testHandler && handlers.length && !handlers.some((handler) => handler.id === instrument.handler_id)) {
    throw new UcpError('invalid_request', `This checkout offers no payment handler ${JSON.stringify(instrument.handler_id)}`, 400, {}, { path: '$.payment.instruments[0].handler_id' });
  }
  const token = testHandler ? testToken(instrument.credential) : providerToken(instrument.credential);
  return { handlerId: testHandler ? testHandler.id : instrument.handler_id, instrument: { type: instrument.type ?? 'card', credential: { type: 'token', token } } };
}
