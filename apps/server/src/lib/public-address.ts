import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a server-side request must never reach unless the operator allows it (SSRF): loopback,
 * private, link-local, CGNAT, multicast, unspecified, documentation and benchmark ranges, and their IPv6
 * equivalents. IPv6 addresses that carry an IPv4 address are judged by it, or refused (embeddedIpv4).
 */
const NOT_PUBLIC = new BlockList();
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
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail read as the last two), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    if (isIP(dotted) !== 4) return null;
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

type Groups = [number, number, number, number, number, number, number, number];

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * What an IPv6 address that carries an IPv4 address must be judged by: the IPv4 address inside (mapped
 * `::ffff:0:0/96`, compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`), or 'refuse' for forms whose
 * IPv4 part cannot be trusted to say where the packet goes (local-use NAT64 `64:ff9b:1::/48`, Teredo
 * `2001::/32`). Undefined for an ordinary IPv6 address.
 */
function embeddedIpv4(address: string): string | 'refuse' | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return 'refuse';
  const [g0, g1, g2, , g4, g5, g6, g7] = groups as Groups;
  const zerosTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zerosTo(5) && g5 === 0xffff) return ipv4Of(g6, g7);
  // IPv4-translated (SIIT), `::ffff:0:a.b.c.d`.
  if (zerosTo(4) && g4 === 0xffff && g5 === 0) return ipv4Of(g6, g7);
  // `::` and `::1` are judged as IPv6 (unspecified, loopback); the rest of ::/96 is IPv4-compatible.
  if (zerosTo(6) && (g6 !== 0 || g7 > 1)) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'refuse';
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return 'refuse';
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner === 'refuse') return false;
  if (inner) return !NOT_PUBLIC.check(inner, 'ipv4');
  return !NOT_PUBLIC.check(address, 'ipv6');
}

export class UnsafeTargetError extends Error {
  constructor(
    readonly reason: 'private' | 'unresolvable',
    message: string,
  ) {
    super(message);
    this.name = 'UnsafeTargetError';
  }
}

/**
 * Resolves a host to the address a request will be pinned to, refusing it when any of its addresses is not
 * public (unless `allowPrivate`): a host that resolves to one public and one private address is refused.
 */
export async function resolvePublicAddress(
  host: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: 4 | 6 }> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await lookup(bare, { all: true, verbatim: true });
    } catch {
      throw new UnsafeTargetError('unresolvable', `the host ${bare} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new UnsafeTargetError('unresolvable', `the host ${bare} has no address`);
  if (!allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused)
      throw new UnsafeTargetError(
        'private',
        `the host ${bare} resolves to a non-public address (${refused.address})`,
      );
  }
  const chosen = addresses[0]!;
  return { address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
