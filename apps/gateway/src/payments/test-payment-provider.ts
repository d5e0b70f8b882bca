/**
 * The built-in test provider, for development and sandbox: no money moves. Its handler is a
 * tokenized card (`dev.acp.tokenized.card`) whose tokens say what should happen:
 *
 * | token                  | outcome                                                              |
 * |------------------------|----------------------------------------------------------------------|
 * | `spt_test_approve`     | approved                                                             |
 * | `spt_test_decline`     | declined (`card_declined`)                                           |
 * | `spt_test_3ds`         | needs 3-D Secure: approved once `authentication_result.outcome` is   |
 * |                        | `authenticated` or `attempt_acknowledged`, declined for any other    |
 * | `fail_token`           | declined — UCP's reference test handler (`mock_payment_handler`,      |
 * |                        | whose `success_token` approves like any other token); ucp/checkout   |
 * | any other token        | approved (so ACP's published examples, e.g. `spt_123`, go through)   |
 *
 * Our own API's completion authorizes the session's `payment_method` token the same way (`demo_card`
 * approves). Captures, cancels and refunds always go through, with references derived from their
 * idempotency keys (`re_test_…`), so a retried operation answers the same. No state is kept:
 * `retrieve` knows no payment (reconciliation has nothing to compare with).
 *
 * The handler id is `card_tokenized`, the one ACP's RFC and examples use.
 */
import { createHash } from 'node:crypto';
import type { AuthenticationMetadata, MoveOutcome, OpenedPayment, PaymentHandlerDeclaration, PaymentMove, PaymentOutcome, PaymentProvider, PaymentRequest, PaymentState } from './payment-provider.js';

export const TEST_TOKENS = { approve: 'spt_test_approve', decline: 'spt_test_decline', authenticate: 'spt_test_3ds' } as const;
/** The tokens of UCP's reference test handler. */
export const UCP_TEST_TOKENS = { approve: 'success_token', decline: 'fail_token' } as const;
export const TEST_HANDLER_ID = 'card_tokenized';

const AUTHENTICATED = new Set(['authenticated', 'attempt_acknowledged']);

const METADATA: AuthenticationMetadata = {
  acquirer_details: { acquirer_bin: '400000', acquirer_country: 'US', acquirer_merchant_id: 'test_acquirer_merchant', merchant_name: 'Commerce Gateway test' },
  directory_server: 'visa',
};

export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  readonly interventions = ['3ds'] as const;

  constructor(private readonly environment: 'sandbox' | 'production' = 'sandbox') {}

  async handlers(merchantId: string): Promise<PaymentHandlerDeclaration[]> {
    return [
      {
        id: TEST_HANDLER_ID,
        name: 'dev.acp.tokenized.card',
        version: '2026-01-22',
        spec: 'https://acp.dev/handlers/tokenized.card',
        requires_delegate_payment: false,
        requires_pci_compliance: false,
        psp: 'test',
        config_schema: 'https://acp.dev/schemas/handlers/tokenized.card/config.json',
        instrument_schemas: ['https://acp.dev/schemas/handlers/tokenized.card/instrument.json'],
        config: {
          merchant_id: merchantId,
          psp: 'test',
          accepted_brands: ['visa', 'mastercard', 'amex', 'discover'],
          supports_3ds: true,
          environment: this.environment,
          test_tokens: Object.values(TEST_TOKENS),
        },
      },
    ];
  }

  async authorize(request: PaymentRequest): Promise<PaymentOutcome> {
    const token = request.instruction?.instrument.credential.token ?? request.paymentMethod ?? '';
    const authentication = request.instruction?.authentication;
    const reference = request.reference ?? derived('pay_test', request.idempotencyKey);
    switch (token) {
      case TEST_TOKENS.approve:
        return { kind: 'approved', reference };
      case TEST_TOKENS.decline:
        return { kind: 'declined', reason: 'The card was declined (test token spt_test_decline)' };
      case UCP_TEST_TOKENS.decline:
        return { kind: 'declined', reason: 'The card was declined (test token fail_token)' };
      case TEST_TOKENS.authenticate:
        if (!authentication) return { kind: 'requires_authentication', metadata: METADATA };
        return AUTHENTICATED.has(authentication.outcome)
          ? { kind: 'approved', reference }
          : { kind: 'declined', reason: `3-D Secure authentication ended with ${JSON.stringify(authentication.outcome)}` };
      default:
        return { kind: 'approved', reference };
    }
  }

  async openPayment(): Promise<OpenedPayment | null> {
    return null;
  }

  async updatePayment(): Promise<void> {}

  async capture(move: PaymentMove): Promise<MoveOutcome> {
    return { kind: 'succeeded', reference: move.reference };
  }

  async cancel(move: PaymentMove): Promise<MoveOutcome> {
    return { kind: 'succeeded', reference: move.reference };
  }

  async refund(move: PaymentMove): Promise<MoveOutcome> {
    return { kind: 'succeeded', reference: derived('re_test', move.idempotencyKey) };
  }

  async retrieve(): Promise<PaymentState | null> {
    return null;
  }
}

function derived(prefix: string, key: string): string {
  return `${prefix}_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}
