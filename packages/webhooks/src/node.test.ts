import { generateTestHeader, sign, verify } from './node.js';
import { describeVerifier } from './verify.contract.js';

describeVerifier('node:crypto flavour', {
  sign: (payload, secret, options) => sign(payload as string, secret, options),
  verify: (payload, header, secret, options) => verify(payload as string, header, secret, options),
  generateTestHeader,
});
