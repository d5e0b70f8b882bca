import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../kernel/errors.js';
import { checkEndpointUrl } from './endpoint-url.js';
import type { Resolver } from '../kernel/outbound/safe-target.js';

const dns: Resolver = async (host) => {
  if (host === 'internal.example') return [{ address: '10.1.2.3', family: 4 }];
  if (host === 'shop.example') return [{ address: '93.184.216.34', family: 4 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};
const production = { allowPrivate: false, requireHttps: true, resolve: dns };

describe('checkEndpointUrl', () => {
  it.each([
    ['ftp://shop.example/hooks', /^url must use http or https/],
    ['not a url', /^url is not a valid absolute URL/],
    ['http://shop.example/hooks', /^url must use https in production/],
    ['https://127.0.0.1/hooks', /^url host 127\.0\.0\.1 is a loopback address/],
    ['https://[::1]/hooks', /^url host ::1 is a loopback address/],
    ['https://10.0.0.12/hooks', /^url host 10\.0\.0\.12 is a private address/],
    ['https://169.254.169.254/latest', /^url host 169\.254\.169\.254 is a cloud-metadata address/],
    ['https://internal.example/hooks', /^url host internal\.example resolves to a private address/],
  ])('refuses %s in production, naming param url', async (url, message) => {
    const refusal = checkEndpointUrl(url, production);
    await expect(refusal).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refusal).rejects.toMatchObject({ param: 'url', message: expect.stringMatching(message) });
  });

  it.each(['https://shop.example/hooks', 'https://93.184.216.34/hooks', 'https://unknown.example/hooks'])('accepts %s in production (a name that does not resolve now too)', async (url) => {
    await expect(checkEndpointUrl(url, production)).resolves.toBeUndefined();
  });

  it('accepts http and private targets where they are allowed (development)', async () => {
    await expect(checkEndpointUrl('http://127.0.0.1:8080/hooks', { allowPrivate: true, requireHttps: false })).resolves.toBeUndefined();
    await expect(checkEndpointUrl('http://127.0.0.1:8080/hooks', { allowPrivate: false, requireHttps: false })).rejects.toMatchObject({ param: 'url' });
  });
});
