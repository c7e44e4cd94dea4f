import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from './address-key.ts';

/**
 * How many connections the server holds: `max` in all, `perAddress` from one client address
 * (an IPv6 client's whole /64, http/address-key.ts). One host's sockets stop at its own cap long
 * before the server is full, so holding idle keep-alive connections cannot shut anyone else out.
 */
export const CONNECTION_LIMITS = { max: 1_000, perAddress: 100 } as const;

export type ConnectionLimits = {
  max: number;
  /** null: no cap per socket peer (behind a reverse proxy every socket is the proxy's). */
  perAddress: number | null;
};

/**
 * Counts the server's sockets per peer address and refuses (closes at once) a connection past
 * either cap. When the server is full, a connection from an address holding fewer than the
 * biggest holder takes one of that holder's idle slots: the idle socket is closed, as a
 * keep-alive connection may be at any time (a client opens a new one). Many hosts together
 * can fill the server, but each newcomer then still gets in at the expense of whoever holds the
 * most. A socket in the middle of a request (an officer's upload) is never the one closed.
 *
 * The address is the socket's peer, the only one the server knows when a connection opens.
 * Behind a reverse proxy that is the proxy's address for every client (X-Forwarded-For comes
 * later, per request, and several clients' requests share one proxy connection), so a cap per
 * client belongs in the proxy there, and the cap per peer is left off unless set.
 *
 * This replaces Node's `server.maxConnections`, which refuses whoever comes after the first
 * `max`, the host holding them included, and leaves everyone else out.
 */
export function limitConnections(server: Server, limits: ConnectionLimits = CONNECTION_LIMITS): void {
  const byPeer = new Map<string, Set<Socket>>();
  /** Requests in flight on a socket: it is idle at 0 (before its first request, or between two). */
  const inFlight = new Map<Socket, number>();
  let total = 0;

  const forget = (key: string, socket: Socket) => {
    const sockets = byPeer.get(key);
    if (!sockets?.delete(socket)) return;
    total--;
    inFlight.delete(socket);
    if (sockets.size === 0) byPeer.delete(key);
  };

  /** Closes an idle socket of the peer holding the most, if it holds more than the newcomer would; false if there is none. */
  const makeRoomFor = (key: string): boolean => {
    const wouldHold = (byPeer.get(key)?.size ?? 0) + 1;
    let victim: { key: string; socket: Socket; held: number } | undefined;
    for (const [peer, sockets] of byPeer) {
      if (sockets.size <= wouldHold || (victim && sockets.size <= victim.held)) continue;
      for (const socket of sockets) {
        if ((inFlight.get(socket) ?? 0) === 0) {
          victim = { key: peer, socket, held: sockets.size };
          break;
        }
      }
    }
    if (!victim) return false;
    forget(victim.key, victim.socket);
    victim.socket.destroy();
    return true;
  };

  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress ?? 'unknown');
    const held = byPeer.get(key)?.size ?? 0;
    if (limits.perAddress !== null && held >= limits.perAddress) return void socket.destroy();
    if (total >= limits.max && !makeRoomFor(key)) return void socket.destroy();
    const sockets = byPeer.get(key) ?? new Set<Socket>();
    byPeer.set(key, sockets);
    sockets.add(socket);
    total++;
    inFlight.set(socket, 0);
    socket.once('close', () => forget(key, socket));
  });

  // 'close' on the response comes once it is sent, or once its socket is gone.
  server.on('request', (req, res) => {
    const socket = req.socket;
    if (!inFlight.has(socket)) return;
    inFlight.set(socket, inFlight.get(socket)! + 1);
    res.once('close', () => {
      const count = inFlight.get(socket);
      if (count !== undefined) inFlight.set(socket, Math.max(0, count - 1));
    });
  });
}
