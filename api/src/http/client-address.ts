import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { addressKey } from './address-key.ts';

/**
 * The client a request came from, as every rate limit keys it: its address, an IPv6 one narrowed
 * to its /64 and an IPv4-mapped one to the IPv4 address (addressKey). By default the socket's peer: the server
 * is reached directly (npm start serves web and API on one port), and X-Forwarded-For is set by
 * the client, so trusting it would let an attacker pick a fresh address for every guess.
 * Behind a reverse proxy (TRUST_PROXY=true) every request comes from the proxy, so the address
 * the proxy appended last to X-Forwarded-For names the client instead; earlier entries were
 * written by the client and are ignored. Without a socket (app.request in tests) every caller
 * shares one bucket, which only errs towards limiting.
 */
export function clientAddress(c: Context, options: { trustProxy: boolean }): string {
  return addressKey(peerOrForwarded(c, options));
}

function peerOrForwarded(c: Context, options: { trustProxy: boolean }): string {
  if (options.trustProxy) {
    const forwarded = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const nearest = forwarded?.[forwarded.length - 1];
    if (nearest) return nearest;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
