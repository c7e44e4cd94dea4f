import { request as httpRequest, type Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { TestApp } from '../test-app.ts';

/**
 * A test app on a real loopback socket, for tests where timing or the client's address matters:
 * guesses sent side by side, or from several addresses (Linux answers all of 127.0.0.0/8).
 */
export type Reply = { status: number; headers: Record<string, string | string[] | undefined>; json: any };

/** POST JSON over a real connection, optionally from another loopback address (127.0.0.2 ...). */
export function postFrom(
  baseUrl: string,
  path: string,
  body: unknown,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}/api${path}`,
      {
        method: 'POST',
        localAddress: options.localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Serves the app on a free loopback port; `close` ends kept-alive connections too. */
export async function listen(app: TestApp): Promise<{ baseUrl: string; port: number; server: Server; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        baseUrl: `http://127.0.0.1:${info.port}`,
        port: info.port,
        server,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    }) as Server;
  });
}
