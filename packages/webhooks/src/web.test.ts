import { generateTestHeaderAsync, signAsync, verifyAsync } from './web.js';
import { describeVerifier } from './verify.contract.js';

describeVerifier('Web Crypto flavour', {
  sign: (payload, secret, options) => signAsync(payload as string, secret, options),
  verify: (payload, header, secret, options) => verifyAsync(payload as string, header, secret, options),
  generateTestHeader: generateTestHeaderAsync,
});
