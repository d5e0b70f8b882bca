import { generateAcpTestHeader, signAcp, verifyAcp } from './acp-node.js';
import { describeAcpVerifier } from './acp.contract.js';
import { describe, expect, it } from 'vitest';
import { verify } from './node.js';

describeAcpVerifier('node:crypto flavour', {
  sign: (payload, secret, options) => signAcp(payload as string, secret, options),
  verify: (payload, header, secret, options) => verifyAcp(payload as string, header, secret, options),
});

describe('the two schemes do not mix', () => {
  it('a Merchant-Signature does not verify as X-Webhook-Signature, nor the reverse', () => {
    const body = '{"type":"order_create","data":{}}';
    const header = generateAcpTestHeader({ payload: body, secret: 'whsec_x', timestamp: 1 });
    expect(() => verify(body, header, 'whsec_x', { now: () => 1000 })).toThrow(/No v1 signature matches the body/);
  });
});
