/**
 * The one address classifier: is an IP address public, and if not, which
 * special range holds it. ipaddr.js names the registered ranges; this adds
 * what it calls "unicast" but is not reachable as a public host (the
 * deprecated IPv4-compatible ::/96, everything outside 2000::/3, ISATAP
 * identifiers) and judges the IPv6 forms that embed an IPv4 address (NAT64,
 * 6to4, ISATAP) by the address they embed.
 */
import ipaddr from 'ipaddr.js';

export interface AddressClass {
  public: boolean;
  /** ipaddr.js's range name, or one of ours: 'ipv4Compatible', 'unallocated', 'nat64Local', 'isatap', 'invalid'. */
  range: string;
  /** The IPv4 address an IPv6 form embeds (NAT64, 6to4, ISATAP), when it was judged by it. */
  embedded?: string;
}

/** Parses a literal IPv4 (four-part decimal only) or IPv6 address, brackets allowed; null otherwise. */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, '$1');
  // Refuse the odd short forms ("127.1") DNS never returns; URLs arrive canonical already.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return null;
  const address = ipaddr.parse(bare);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return (address as ipaddr.IPv6).toIPv4Address();
  return address;
}

export function classifyAddress(ip: string): AddressClass {
  const address = parseIp(ip);
  if (!address) return { public: false, range: 'invalid' };
  if (address.kind() === 'ipv4') return classifyV4(address as ipaddr.IPv4);
  return classifyV6(address as ipaddr.IPv6);
}

function classifyV4(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  return { public: range === 'unicast', range };
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  const bytes = address.toByteArray();
  const range = address.range();
  // NAT64 (RFC 6052): 64:ff9b::/96 carries an IPv4 address in its last 32 bits and is as public as that address.
  // The local-use prefix 64:ff9b:1::/48 (RFC 8215) points into the operator's own network.
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b])) {
    if (bytes.slice(4, 12).every((b) => b === 0)) return byEmbedded('rfc6052', bytes.slice(12, 16));
    return { public: false, range: 'nat64Local' };
  }
  // 6to4 (RFC 3056): 2002:AABB:CCDD::/48 reaches the IPv4 address AA.BB.CC.DD.
  if (startsWith(bytes, [0x20, 0x02])) return byEmbedded('6to4', bytes.slice(2, 6));
  if (range !== 'unicast') return { public: false, range };
  // ::/8 is IETF-reserved: ::/96 is the deprecated IPv4-compatible form (::7f00:1 is 127.0.0.1 on some stacks).
  if (bytes[0] === 0)
    return { public: false, range: bytes.slice(0, 12).every((b) => b === 0) ? 'ipv4Compatible' : 'reserved' };
  // Only 2000::/3 is allocated as global unicast; the rest of the space is reserved.
  if ((bytes[0]! & 0xe0) !== 0x20) return { public: false, range: 'unallocated' };
  // ISATAP interface identifiers (RFC 5214: ::0:5efe:a.b.c.d, ::200:5efe:a.b.c.d) tunnel to the embedded IPv4 address.
  if ((bytes[8] === 0x00 || bytes[8] === 0x02) && bytes[9] === 0x00 && bytes[10] === 0x5e && bytes[11] === 0xfe) {
    const embedded = byEmbedded('isatap', bytes.slice(12, 16));
    return embedded.public ? { public: true, range: 'unicast', embedded: embedded.embedded! } : embedded;
  }
  return { public: true, range: 'unicast' };
}

function byEmbedded(range: string, v4Bytes: number[]): AddressClass {
  const embedded = new ipaddr.IPv4(v4Bytes);
  return { public: embedded.range() === 'unicast', range, embedded: embedded.toString() };
}

function startsWith(bytes: number[], prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}
