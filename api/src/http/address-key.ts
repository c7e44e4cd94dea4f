import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a client's address is counted under, by every rate limit and the connection caps.
 *
 * An IPv4 address is one client. An IPv6 address is not: a home or phone line is handed a whole
 * /64 (RFC 6177 and every carrier's practice) and picks any of its 2^64 addresses at will, so
 * keyed by the full address one client has endless fresh buckets. IPv6 is therefore keyed by
 * its /64, written `2001:db8:1:2::/64`. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, how a
 * dual-stack socket shows an IPv4 client) is that IPv4 client. A zone id (`fe80::1%eth0`) and
 * the brackets and port a proxy may add (`[2001:db8::1]:443`) are dropped. Anything else (a
 * proxy's `unknown`) is its own key, as given.
 */
export function addressKey(address: string): string {
  const bare = withoutDecoration(address.trim());
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address.trim();
  const groups = ipv6Groups(bare);
  const isMappedIPv4 = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isMappedIPv4) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  // Lower-case hex without leading zeros, always four groups: one spelling per /64.
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** `[v6]:port`, `[v6]`, `v4:port` and a zone id, taken off. */
function withoutDecoration(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  const inner = bracketed ? bracketed[1]! : address;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(inner);
  if (v4WithPort) return v4WithPort[1]!;
  const zone = inner.indexOf('%');
  return zone === -1 ? inner : inner.slice(0, zone);
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail is two of them). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
