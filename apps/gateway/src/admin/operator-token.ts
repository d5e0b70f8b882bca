/**
 * Operator credentials of the admin API: `op_` + 32 random base62 characters (≈190 bits), like
 * API keys (auth/api-key.ts) but with a prefix of their own, so that neither kind of credential
 * is ever mistaken for the other. Only the SHA-256 digest is stored.
 */
import { hashApiKey } from '../auth/api-key.js';
import { randomBase62 } from '../kernel/ids.js';

export const OPERATOR_PREFIX = 'op_';
const TOKEN_PATTERN = /^op_[0-9A-Za-z]{32}$/;

export function generateOperatorToken(): string {
  return OPERATOR_PREFIX + randomBase62(32);
}

export function isOperatorToken(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}

export const hashOperatorToken = hashApiKey;
