import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.js';
import { verify } from './node.js';

describe('WebhookVerificationError', () => {
  it('is an Error with a name, a reason and a stack', () => {
    const error = new WebhookVerificationError('signature_mismatch', 'no match');
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('WebhookVerificationError');
    expect(error.reason).toBe('signature_mismatch');
    expect(String(error)).toBe('WebhookVerificationError: no match');
    expect(error.stack).toContain('no match');
  });

  it('keeps a cause', () => {
    const cause = new SyntaxError('bad');
    expect(new WebhookVerificationError('invalid_body', 'x', { cause }).cause).toBe(cause);
  });

  it.each([
    ['missing_header', () => verify('{}', undefined, 's'), /x-webhook-signature/i],
    ['malformed_header', () => verify('{}', 't=1', 's'), /t=<unix seconds>,v1=/],
    ['signature_mismatch', () => verify('{}', `t=1,v1=${'a'.repeat(64)}`, 's'), /secret.*raw body/],
    ['invalid_body', () => verify({} as string, 't=1', 's'), /express\.raw/],
    ['invalid_secret', () => verify('{}', 't=1', ''), /environment variable/],
  ])('%s says how to fix the mistake', (reason, action, hint) => {
    expect(action).toThrow(expect.objectContaining({ reason, message: expect.stringMatching(hint) }));
  });
});
