import { parseSignatureHeader, type SignatureHeader } from './header.js';
import { fail, type SignatureHeaderName } from './messages.js';
import { checkVerifyOptions, secretList } from './options.js';
import { assertPayload } from './payload.js';
import type { SignatureHeaderValue, VerifyOptions, WebhookPayload, WebhookSecret } from './types.js';

export interface VerifyInput extends SignatureHeader {
  payload: WebhookPayload;
  secrets: readonly string[];
}

/** The checks both flavours run before any cryptography, in the order a caller would fix them. */
export function verifyInput(
  payload: unknown,
  header: SignatureHeaderValue,
  secret: WebhookSecret,
  options: VerifyOptions | undefined,
  headerName?: SignatureHeaderName,
): VerifyInput {
  assertPayload(payload);
  const secrets = secretList(secret);
  checkVerifyOptions(options);
  // Node types custom headers as string | string[]; repeated header lines mean the same as one joined by commas.
  const value = typeof header === 'string' ? header : Array.isArray(header) ? header.join(',') : '';
  if (value.trim() === '') throw fail.missingHeader(headerName);
  return { payload, secrets, ...parseSignatureHeader(value, headerName) };
}
