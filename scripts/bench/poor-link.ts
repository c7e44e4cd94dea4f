// One bar of signal as a phone has it: a link every byte crosses in turn. A TCP proxy on
// loopback in front of the server, through which all of a browser's connections share one queue
// each way at the link's rate, each byte arriving half a round trip after it left the queue, and
// each new connection a round trip before its first request (the handshake).
//
// Chromium's DevTools throttling (Network.emulateNetworkConditions) delays each request on its
// own: a stylesheet does not wait behind the 100 KB of scripts fetched beside it, as it does on a
// real link. An outside check throttling the network for real saw the sign-in form seconds later
// than our DevTools bench did; both are measured now (scripts/bench/web-delivery.ts). Linux's
// netem would do this in the kernel, but the kernels here are built without it.
import { createServer, connect, type Server, type Socket } from 'node:net';

export type LinkConditions = { bitsPerSecond: number; roundTripMs: number };

/** 400 kbit/s each way and a 400 ms round trip: the officers' one bar of signal (decision 0011). */
export const ONE_BAR: LinkConditions = { bitsPerSecond: 400_000, roundTripMs: 400 };

/** One direction of the link: a FIFO drained at the link's rate, then half a round trip in flight. */
function direction({ bitsPerSecond, roundTripMs }: LinkConditions) {
  let queueFreeAt = 0;
  const inFlight = new Set<NodeJS.Timeout>();
  return {
    send(bytes: number, deliver: () => void) {
      const now = performance.now();
      const start = Math.max(now, queueFreeAt);
      queueFreeAt = start + ((bytes * 8) / bitsPerSecond) * 1000;
      const timer = setTimeout(
        () => {
          inFlight.delete(timer);
          deliver();
        },
        queueFreeAt + roundTripMs / 2 - now,
      );
      inFlight.add(timer);
    },
    stop() {
      for (const timer of inFlight) clearTimeout(timer);
    },
  };
}

export type PoorLink = { url: string; port: number; close: () => Promise<void> };

/** A proxy on 127.0.0.1 that forwards to `targetPort` over the poor link. */
export async function startPoorLink(targetPort: number, conditions: LinkConditions = ONE_BAR): Promise<PoorLink> {
  const up = direction(conditions);
  const down = direction(conditions);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    // The handshake: the first request leaves a round trip after the connection was asked for.
    const early: Buffer[] = [];
    let isOpen = false;
    setTimeout(() => {
      isOpen = true;
      for (const chunk of early) up.send(chunk.length, () => upstream.write(chunk));
    }, conditions.roundTripMs);
    client.on('data', (chunk: Buffer) => (isOpen ? up.send(chunk.length, () => upstream.write(chunk)) : early.push(chunk)));
    upstream.on('data', (chunk: Buffer) => down.send(chunk.length, () => client.write(chunk)));
    // A close travels the link too, behind the bytes sent before it.
    client.on('end', () => up.send(0, () => upstream.end()));
    upstream.on('end', () => down.send(0, () => client.end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the poor link did not get a port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    close: async () => {
      up.stop();
      down.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
