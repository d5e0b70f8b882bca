import { signAcpAsync, verifyAcpAsync } from './acp-web.js';
import { signAcp } from './acp-node.js';
import { describeAcpVerifier } from './acp.contract.js';
import { describe, expect, it } from 'vitest';

describeAcpVerifier('Web Crypto flavour', {
  sign: (payload, secret, options) => signAcpAsync(payload as string, secret, options),
  verify: (payload, header, secret, options) => verifyAcpAsync(payload as string, header, secret, options),
});

describe('both flavours agree', () => {
  it('on every byte value of a binary body', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(await signAcpAsync(bytes.buffer, 'k', { timestamp: 7 })).toBe(signAcp(bytes, 'k', { timestamp: 7 }));
  });
});
