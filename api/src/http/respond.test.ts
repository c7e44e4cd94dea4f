import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ok, pickEncoding } from './respond.ts';

describe('pickEncoding', () => {
  it('prefers zstd when named, then brotli, then gzip, and honours q=0 and the wildcard', () => {
    // What Chromium and Firefox send, and what Safari sends.
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('zstd');
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('zstd;q=0, br')).toBe('br');
    expect(pickEncoding('gzip;q=0.5, br;q=0')).toBe('gzip');
    expect(pickEncoding('BR')).toBe('br');
    // A wildcard may come from a client older than zstd: it gets brotli.
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('ok', () => {
  const app = new Hono().route(
    '/api',
    new Hono()
      .get('/health', (c) => ok(c, 'GET /health', { status: 'ok', db: 'ok' }))
      .get('/pcns/:id', (c) => ok(c, 'GET /pcns/:id/audit', { pcnId: c.req.param('id'), entries: [] })),
  );
  app.onError((error, c) => c.text(error.message, 500));

  it('answers the route it names, for GET and HEAD', async () => {
    const res = await app.request('/api/health');
    expect(await res.json()).toEqual({ success: true, data: { status: 'ok', db: 'ok' } });
    expect((await app.request('/api/health', { method: 'HEAD' })).status).toBe(200);
  });

  it('refuses to answer one route under another route of the contract', async () => {
    const res = await app.request('/api/pcns/p1');
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('The handler of GET /api/pcns/:id answered as GET /pcns/:id/audit');
  });
});
