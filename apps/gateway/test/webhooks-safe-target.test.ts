/**
 * SSRF protection: which targets a webhook may go to. No traffic is sent
 * here; host names resolve through an injected resolver.
 */
import { describe, expect, it } from 'vitest';
import { DeliveryError, UnsafeTargetError } from '../src/kernel/outbound/delivery-errors.js';
import { embeddedIPv4, nonPublicClass, teredoIPv4 } from '../src/kernel/outbound/ip-ranges.js';
import { vetTarget, type Resolver } from '../src/kernel/outbound/safe-target.js';

const resolveTo = (...addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const noDns: Resolver = async (host) => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};

describe('nonPublicClass', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.100.100.200', 'cloud-metadata'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
    ['2002:c0a8:0101::1', 'private'],
    // IPv4-translated (RFC 2765, ::ffff:0:0/96): judged by the IPv4 address they carry
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['0:0:0:0:ffff:0:a00:1', 'private'],
    ['::ffff:0:169.254.169.254', 'cloud-metadata'],
    ['::ffff:0:100.64.0.1', 'shared (carrier-grade NAT)'],
    // Teredo (2001::/32: server IPv4, flags, port, client IPv4 with every bit flipped)
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // client 127.0.0.1 through a public server
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'], // client 10.0.0.1
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'cloud-metadata'], // client 169.254.169.254
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private'], // server 10.0.0.1, client 8.8.8.8
    ['2001::7f00:1:0:0:f7f7:f7f7', 'loopback'], // server 127.0.0.1
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo (tunnelled IPv4)'], // public server and client: refused all the same
    ['2001::', 'unspecified'], // server 0.0.0.0
    // the rest of IANA's special-purpose 2001::/23 that is not routable
    ['2001:2::1', 'reserved'], // benchmarking
    ['2001:10::1', 'reserved'], // ORCHID
    ['2001:20::1', 'reserved'], // ORCHIDv2
  ])('%s is %s', (address, kind) => {
    expect(nonPublicClass(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '::ffff:0:8.8.8.8', '2001:4860:4860::8888', '2001:1::1', '2001:200::1'])(
    '%s is public',
    (address) => {
      expect(nonPublicClass(address)).toBeUndefined();
    },
  );

  it('reads the IPv4 address inside mapped, NAT64 and 6to4 addresses', () => {
    expect(embeddedIPv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIPv4('64:ff9b::0a00:0001')).toBe('10.0.0.1');
    expect(embeddedIPv4('2002:0a00:0001::')).toBe('10.0.0.1');
    expect(embeddedIPv4('::ffff:0:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIPv4('2606:4700::1')).toBeUndefined();
  });

  it('reads the server and the de-obfuscated client IPv4 address of a Teredo address (RFC 4380 §4)', () => {
    // RFC 4380's own example shape: server 65.54.227.120, client 192.0.2.45 (stored as 3fff:fdd2)
    expect(teredoIPv4('2001:0000:4136:e378:8000:63bf:3fff:fdd2')).toEqual({ server: '65.54.227.120', client: '192.0.2.45' });
    expect(teredoIPv4('2001:1::1')).toBeUndefined();
    expect(teredoIPv4('2002:0a00:0001::')).toBeUndefined();
    expect(teredoIPv4('10.0.0.1')).toBeUndefined();
  });
});

describe('vetTarget', () => {
  const refused = { allowPrivate: false, resolve: noDns };

  it.each([
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://127.1:8080/hook', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.0.0.1/', 'loopback'],
    ['http://10.1.2.3/hook', 'private'],
    ['http://172.16.5.4/hook', 'private'],
    ['http://192.168.0.10/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud-metadata'],
    ['http://[::1]:3000/hook', 'loopback'],
    ['http://[fc00::1]/hook', 'unique-local'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://0.0.0.0:8080/', 'unspecified'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:0:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:0:169.254.169.254]/latest/meta-data/', 'cloud-metadata'],
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'loopback'],
    ['http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/', 'Teredo (tunnelled IPv4)'],
  ])('refuses %s (%s) without a DNS lookup', async (url, kind) => {
    await expect(vetTarget(url, refused)).rejects.toThrow(UnsafeTargetError);
    await expect(vetTarget(url, refused)).rejects.toThrow(`a ${kind} address`);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.7', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.20', 'private'],
    ['169.254.169.254', 'cloud-metadata'],
    ['::1', 'loopback'],
    ['fc00::5', 'unique-local'],
    ['fe80::5', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::ffff:0:10.0.0.7', 'private'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'],
  ])('refuses a host name that resolves to %s (%s)', async (address, kind) => {
    const attempt = vetTarget('https://hooks.attacker.example/in', { allowPrivate: false, resolve: resolveTo(address) });
    await expect(attempt).rejects.toThrow(`host hooks.attacker.example resolves to a ${kind} address`);
  });

  it('refuses a host when any of its addresses is not public', async () => {
    const attempt = vetTarget('https://mixed.example/', { allowPrivate: false, resolve: resolveTo('93.184.216.34', '10.0.0.1') });
    await expect(attempt).rejects.toThrow(UnsafeTargetError);
  });

  it('pins the first address of a public host and keeps the name for Host and SNI', async () => {
    const target = await vetTarget('https://shop.example:8443/hooks?x=1', { allowPrivate: false, resolve: resolveTo('93.184.216.34', '2606:2800::1') });
    expect(target).toMatchObject({ hostname: 'shop.example', address: '93.184.216.34', family: 4 });
    expect(target.url.host).toBe('shop.example:8443');
  });

  it('allows private targets when WEBHOOK_ALLOW_PRIVATE_TARGETS is on', async () => {
    await expect(vetTarget('http://127.0.0.1:9/x', { allowPrivate: true })).resolves.toMatchObject({ address: '127.0.0.1', family: 4 });
    await expect(vetTarget('http://[::1]:9/x', { allowPrivate: true })).resolves.toMatchObject({ hostname: '::1', address: '::1', family: 6 });
    await expect(vetTarget('http://internal.test/', { allowPrivate: true, resolve: resolveTo('10.0.0.1') })).resolves.toMatchObject({ address: '10.0.0.1' });
  });

  it.each(['ftp://example.com/x', 'file:///etc/passwd', 'gopher://example.com', 'javascript:alert(1)', 'not a url', '/relative'])(
    'refuses %s: http(s) only, even with private targets allowed',
    async (url) => {
      await expect(vetTarget(url, { allowPrivate: true, resolve: noDns })).rejects.toThrow(UnsafeTargetError);
    },
  );

  it('reports a failed DNS lookup as a delivery failure with the reason', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    const attempt = vetTarget('https://nowhere.invalid/', { allowPrivate: false, resolve: failing });
    await expect(attempt).rejects.toThrow(DeliveryError);
    await expect(attempt).rejects.toThrow('DNS lookup of nowhere.invalid failed (ENOTFOUND)');
  });

  it('gives up on a DNS lookup that takes too long', async () => {
    const hanging: Resolver = () => new Promise(() => {});
    await expect(vetTarget('https://slow.example/', { allowPrivate: false, resolve: hanging, dnsTimeoutMs: 50 })).rejects.toThrow(
      'DNS lookup of slow.example timed out',
    );
  });

  it('resolves real names with the system resolver (localhost is loopback)', async () => {
    await expect(vetTarget('http://localhost:9/', { allowPrivate: false })).rejects.toThrow(/localhost resolves to a loopback address/);
  });
});
