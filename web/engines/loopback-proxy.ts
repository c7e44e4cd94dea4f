import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback between the browser and the API: cut, the app's origin refuses every
 * connection as a phone with no signal meets it, in any engine, with no engine's network
 * emulation; restored, the same origin answers again.
 */
export type LoopbackProxy = { port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> };

export async function startLoopbackProxy(upstreamPort: number, port = 0): Promise<LoopbackProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const listen = (on: number) =>
    new Promise<number>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(upstreamPort, '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      next.once('error', reject);
      next.listen(on, '127.0.0.1', () => {
        server = next;
        const address = next.address();
        resolve(typeof address === 'object' && address ? address.port : on);
      });
    });
  const bound = await listen(port);
  const cut = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  return {
    port: bound,
    cut,
    restore: async () => {
      if (!server) await listen(bound);
    },
    close: cut,
  };
}
