import { describe, expect, it } from 'vitest';
import { BASE_HEADERS, BODY, describeUcpVerifier, KEY, ORDER, URL_ } from './ucp.contract.js';
import { signUcpRequest, verifyUcpRequest } from './ucp-node.js';
import { signUcpRequestAsync, verifyUcpRequestAsync } from './ucp-web.js';

describeUcpVerifier('Web Crypto flavour', {
  sign: (request, key) => signUcpRequestAsync(request, key),
  verify: (request, keys, options) => verifyUcpRequestAsync(request, keys, options),
});

describe('UCP flavours interoperate', () => {
  const request = { method: 'POST', url: `${URL_}?shop=a`, headers: { ...BASE_HEADERS, 'idempotency-key': 'k-1' }, body: BODY };

  it('the Node signer verifies with the Web verifier', async () => {
    const headers = signUcpRequest(request, KEY.privateJwk);
    expect(await verifyUcpRequestAsync({ ...request, headers: { ...request.headers, ...headers } }, [KEY.publicJwk])).toEqual(ORDER);
  });

  it('the Web signer verifies with the Node verifier', async () => {
    const headers = await signUcpRequestAsync(request, KEY.privateJwk);
    expect(verifyUcpRequest({ ...request, headers: { ...request.headers, ...headers } }, [KEY.publicJwk])).toEqual(ORDER);
  });

  it('signs with a Web Crypto CryptoKey', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const jwk = { ...(await crypto.subtle.exportKey('jwk', pair.publicKey)), kid: 'ck' };
    const headers = await signUcpRequestAsync({ ...request, keyid: 'ck' }, pair.privateKey);
    expect(verifyUcpRequest({ ...request, headers: { ...request.headers, ...headers } }, [jwk as never])).toEqual(ORDER);
  });
});
