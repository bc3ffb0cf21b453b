import { isIP } from 'node:net';

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is the IPv4 address 1.2.3.4. */
export const unmapped = (ip: string): string => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string | undefined) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const [head, rest] = text.split('::');
  const before = groups(head);
  const after = groups(rest);
  const zeros = rest === undefined ? 0 : 8 - before.length - after.length;
  return [...before, ...Array<number>(zeros).fill(0), ...after];
}

/**
 * Whom a per-IP rate limit counts: an IPv4 address as it is, an IPv6 client by its /64 network,
 * the smallest block a provider gives one customer (a single host can use every address in it).
 * Anything else (no address known) is kept as it is.
 */
export function rateLimitSubject(ip: string): string {
  const address = unmapped(ip.replace(/%.*$/, ''));
  const family = isIP(address);
  if (family !== 6) return family === 4 ? address : ip;
  const network = ipv6Groups(address.toLowerCase())
    .slice(0, 4)
    .map((group) => group.toString(16));
  return `${network.join(':')}::/64`;
}
