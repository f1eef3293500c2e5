// Which IP addresses an outbound request (a webhook delivery) may reach: public unicast only.
// Loopback, private, shared (CGNAT), link-local (with the cloud metadata address), unique-local,
// multicast, documentation and reserved ranges are refused; IPv4-mapped, NAT64 (64:ff9b::/96) and
// 6to4 IPv6 addresses are judged by the IPv4 address they carry; the IPv4-compatible ::/96 and the
// local-use NAT64 prefix 64:ff9b:1::/48 are refused outright.
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 taken as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const before = parse(head);
  const after = parse(tail);
  return tail === undefined ? before : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * How an IPv6 address is judged: 'refuse' outright (the IPv4-compatible ::/96 with :: and ::1,
 * the local-use NAT64 prefix 64:ff9b:1::/48), by the IPv4 address it carries (IPv4-mapped
 * ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16), or 'own' (by its own range).
 */
function ipv6Judged(address: string): 'refuse' | 'own' | { ipv4: string } {
  const g = ipv6Groups(address);
  if (g.slice(0, 6).every((group) => group === 0)) return 'refuse';
  if (g.slice(0, 5).every((group) => group === 0) && g[5] === 0xffff) return { ipv4: ipv4Of(g[6]!, g[7]!) };
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'refuse';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) return { ipv4: ipv4Of(g[6]!, g[7]!) };
  if (g[0] === 0x2002) return { ipv4: ipv4Of(g[1]!, g[2]!) };
  return 'own';
}

/** True for a public unicast address; false for anything else, including text that is not an IP. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const judged = ipv6Judged(address);
  if (judged === 'refuse') return false;
  if (judged !== 'own') return !blocked.check(judged.ipv4, 'ipv4');
  return !blocked.check(address, 'ipv6');
}
