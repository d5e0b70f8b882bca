/**
 * The credentials a completion pays with, as the payment port's token. Both releases define two
 * credential forms (types/payment_credential.json): a token (`{type: "token", token}`) and a card
 * (`{type: "card", number, expiry_month, expiry_year, cvc, …}`, types/card_credential.json).
 *
 * UCP's test handler (`mock_payment_handler`, development and sandbox) takes both:
 *
 * | credential                                   | outcome                                       |
 * |----------------------------------------------|-----------------------------------------------|
 * | token `success_token` (or any other token)   | approved                                      |
 * | token `fail_token`                           | declined (`payment_failed`, nothing ordered)  |
 * | card `4242424242424242`, `4111111111111111`  | approved — the numbers the release's schema   |
 * |                                              | and tokenization guide show                   |
 * | card `4000000000000002`                      | declined (the usual "card declined" number)   |
 * | any other card number                        | declined (not a test number)                  |
 *
 * A card is never handed to a provider, nor kept: it becomes the test token of its outcome here.
 * A real provider's handler takes tokens only — this business holds no card data (no PCI scope).
 */
import { UCP_TEST_TOKENS } from '../../payments/test-payment-provider.js';
import { UcpError } from '../ucp-error.js';

export const TEST_CARDS = { approve: ['4242424242424242', '4111111111111111'], decline: '4000000000000002' } as const;

type Credential = { type?: string; token?: string; number?: unknown; [field: string]: unknown };

const PATH = '$.payment.instruments[0].credential';

function token(credential: Credential): string {
  if (credential.type !== undefined && credential.type !== 'token') {
    throw new UcpError('invalid_request', `This payment handler takes token credentials, not ${JSON.stringify(credential.type)}`, 400, {}, { path: `${PATH}.type` });
  }
  if (typeof credential.token !== 'string' || !credential.token) throw new UcpError('invalid_request', `${PATH}.token is required`, 400, {}, { path: `${PATH}.token` });
  return credential.token;
}

/** The test handler's token for a credential (see the table above). */
export function testToken(credential: Credential): string {
  if (credential.type !== 'card') return token(credential);
  const number = typeof credential.number === 'string' ? credential.number.replace(/[\s-]/g, '') : '';
  if (!number) throw new UcpError('invalid_request', `${PATH}.number is required`, 400, {}, { path: `${PATH}.number` });
  return (TEST_CARDS.approve as readonly string[]).includes(number) ? UCP_TEST_TOKENS.approve : UCP_TEST_TOKENS.decline;
}

/** A real provider's token: token credentials only. */
export const providerToken = (credential: Credential): string => token(credential);
