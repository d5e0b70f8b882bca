/**
 * Which IP addresses a webhook may be sent to. Anything but a public unicast
 * address is named by its class (loopback, private, link-local, …) so the
 * refusal can say why. IPv6 forms that carry an IPv4 address (mapped,
 * translated, compatible, NAT64, 6to4) are judged by the IPv4 address inside.
 * Teredo (2001::/32) is judged by its server and its de-obfuscated client
 * address and, when both are public, refused all the same: a public Teredo
 * address is a tunnel into an IPv4 host through whatever relay answers, and no
 * webhook receiver needs one (Teredo is all but retired).
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

type Family = 'ipv4' | 'ipv6';

/** Checked in order: the first class whose ranges hold the address names it. */
const CLASSES: [name: string, family: Family, ranges: string[]][] = [
  ['cloud-metadata', 'ipv4', ['169.254.169.254/32', '100.100.100.200/32', '192.0.0.192/32']],
  ['cloud-metadata', 'ipv6', ['fd00:ec2::254/128']],
  ['unspecified', 'ipv4', ['0.0.0.0/8']],
  ['unspecified', 'ipv6', ['::/128']],
  ['loopback', 'ipv4', ['127.0.0.0/8']],
  ['loopback', 'ipv6', ['::1/128']],
  ['private', 'ipv4', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['shared (carrier-grade NAT)', 'ipv4', ['100.64.0.0/10']],
  ['link-local', 'ipv4', ['169.254.0.0/16']],
  ['link-local', 'ipv6', ['fe80::/10']],
  ['unique-local', 'ipv6', ['fc00::/7']],
  ['site-local', 'ipv6', ['fec0::/10']],
  ['multicast', 'ipv4', ['224.0.0.0/4']],
  ['multicast', 'ipv6', ['ff00::/8']],
  [
    'reserved',
    'ipv4',
    ['192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4'],
  ],
  // 2001:2::/48 benchmarking, 2001:10::/28 ORCHID, 2001:20::/28 ORCHIDv2 (RFC 5180, 4843, 7343): never routed
  ['reserved', 'ipv6', ['100::/64', '2001:2::/48', '2001:10::/28', '2001:20::/28', '2001:db8::/32', '3fff::/20']],
];

const LISTS = CLASSES.map(([name, family, ranges]) => {
  const list = new BlockList();
  for (const range of ranges) {
    const [network, prefix] = range.split('/') as [string, string];
    list.addSubnet(network, Number(prefix), family);
  }
  return { name, family, list };
});

/** The 16 bytes of an IPv6 address (accepts an embedded dotted quad at the end). */
function ipv6Bytes(address: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  all.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

const v4 = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
const zero = (b: Uint8Array, from: number, to: number) => b.slice(from, to).every((x) => x === 0);

/** The IPv4 address carried inside an IPv6 one (mapped, translated, compatible, NAT64, 6to4), if any. */
export function embeddedIPv4(address: string): string | undefined {
  if (!isIPv6(address)) return undefined;
  const b = ipv6Bytes(address);
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(b, 12); // ::ffff:a.b.c.d
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return v4(b, 12); // ::ffff:0:a.b.c.d (RFC 2765 "translated")
  if (zero(b, 0, 12)) return v4(b, 12); // ::a.b.c.d (deprecated "compatible")
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) return v4(b, 12); // 64:ff9b::/96
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0 && b[5] === 1) return v4(b, 12); // 64:ff9b:1::/48
  if (b[0] === 0x20 && b[1] === 0x02) return v4(b, 2); // 2002::/16 (6to4)
  return undefined;
}

/** The class given to a Teredo address whose server and client are both public. */
export const TEREDO = 'Teredo (tunnelled IPv4)';

/** The server and client IPv4 addresses of a Teredo address (2001:0::/32; RFC 4380 §4), if it is one. */
export function teredoIPv4(address: string): { server: string; client: string } | undefined {
  if (!isIPv6(address)) return undefined;
  const b = ipv6Bytes(address);
  if (!(b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0)) return undefined;
  const client = b.slice(12, 16).map((x) => x ^ 0xff); // stored with every bit flipped
  return { server: v4(b, 4), client: v4(client, 0) };
}

/**
 * The class of a non-public address ("loopback", "private", "link-local", "unique-local",
 * "cloud-metadata", …), or undefined for a public unicast address. Throws on a non-IP string.
 */
export function nonPublicClass(address: string): string | undefined {
  const family: Family | undefined = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  if (!family) throw new TypeError(`not an IP address: ${JSON.stringify(address)}`);
  for (const { name, family: listFamily, list } of LISTS) {
    if (listFamily === family && list.check(address, family)) return name;
  }
  const teredo = teredoIPv4(address);
  if (teredo) return nonPublicClass(teredo.server) ?? nonPublicClass(teredo.client) ?? TEREDO;
  const inner = embeddedIPv4(address);
  return inner ? nonPublicClass(inner) : undefined;
}
