import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeader } from './request-header.ts';

/** A raw HTTP/1.1 request, so repeated and oddly spelt headers reach the server as written. */
function send(port: number, headerLines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(['GET /echo HTTP/1.1', 'Host: localhost', 'Connection: close', ...headerLines, '', ''].join('\r\n'));
    });
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer.slice(answer.indexOf('\r\n\r\n') + 4)));
    socket.on('error', reject);
  });
}

describe('requestHeader on a real Node server', () => {
  const names = ['authorization', 'Accept-Encoding', 'x-missing'];
  let server: ServerType;
  let port: number;

  beforeAll(async () => {
    const app = new Hono().get('/echo', (c) =>
      c.json(names.map((name) => ({ name, fromNode: requestHeader(c, name) ?? null, fromHono: c.req.header(name) ?? null }))),
    );
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['one of each', ['Authorization: Bearer abc.def.ghi', 'Accept-Encoding: gzip, br']],
    ['names in any case', ['AUTHORIZATION: Bearer abc', 'accept-encoding: br']],
    [
      'a header sent twice, joined as a web Headers joins it',
      ['Authorization: Bearer one', 'Authorization: Bearer two', 'Accept-Encoding: gzip', 'Accept-Encoding: br'],
    ],
    ['an empty value', ['Authorization:', 'Accept-Encoding: ']],
    ['none at all', []],
  ])('reads %s exactly as Hono does', async (_case, headerLines) => {
    const answer = JSON.parse(await send(port, headerLines)) as Array<{ name: string; fromNode: string | null; fromHono: string | null }>;
    for (const { name, fromNode, fromHono } of answer) expect(fromNode, name).toBe(fromHono);
  });

  it('a header sent twice is one value the bearer pattern refuses', async () => {
    const answer = JSON.parse(await send(port, ['Authorization: Bearer one', 'Authorization: Bearer two'])) as Array<{
      name: string;
      fromNode: string | null;
    }>;
    const authorization = answer.find((entry) => entry.name === 'authorization')!.fromNode!;
    expect(authorization).toBe('Bearer one, Bearer two');
    expect(/^Bearer\s+(\S+)$/i.exec(authorization)).toBeNull();
  });

  it('without a Node request (app.request in tests) it reads Hono’s', async () => {
    const app = new Hono().get('/', (c) => c.text(requestHeader(c, 'authorization') ?? 'none'));
    expect(await (await app.request('/', { headers: { Authorization: 'Bearer x' } })).text()).toBe('Bearer x');
    expect(await (await app.request('/')).text()).toBe('none');
  });
});
