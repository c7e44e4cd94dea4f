import { createHmac } from 'node:crypto';
import { sign as honoSign } from 'hono/jwt';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken, verifyAccessToken } from './access-token.ts';

const SECRET = 'unit-test-secret-that-is-long-enough-for-hs256';
const NOW = new Date('2026-11-25T10:00:00Z');
const SECONDS = Math.floor(NOW.getTime() / 1000);

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token made by hand, so every part can be wrong on purpose. */
function forge(header: unknown, payload: unknown, options: { secret?: string; algorithm?: string } = {}): string {
  const input = `${encode(header)}.${encode(payload)}`;
  const mac = createHmac(options.algorithm ?? 'sha256', options.secret ?? SECRET)
    .update(input)
    .digest('base64url');
  return `${input}.${mac}`;
}

const claims = (overrides: Record<string, unknown> = {}) => ({
  sub: 'user-1',
  sid: 'session-1',
  role: 'USER',
  iat: SECONDS,
  exp: SECONDS + 60,
  ...overrides,
});
const HS256 = { alg: 'HS256', typ: 'JWT' };

describe('access tokens', () => {
  it('verifies what it signed, with the claims intact', async () => {
    const token = await signAccessToken(SECRET, { id: 'user-1', role: 'ADMIN' }, 'session-1', NOW);
    expect(await verifyAccessToken(SECRET, token, NOW)).toEqual({
      sub: 'user-1',
      sid: 'session-1',
      role: 'ADMIN',
      iat: SECONDS,
      exp: SECONDS + ACCESS_TOKEN_TTL_SECONDS,
    });
  });

  it('keeps accepting tokens signed by hono/jwt before the switch (same format)', async () => {
    const token = await honoSign(claims(), SECRET, 'HS256');
    expect(await verifyAccessToken(SECRET, token, NOW)).toMatchObject({ sub: 'user-1', sid: 'session-1' });
    expect(forge(HS256, claims())).toBe(token);
  });

  it('refuses a tampered payload, a tampered signature and another key', async () => {
    const token = await signAccessToken(SECRET, { id: 'user-1', role: 'USER' }, 'session-1', NOW);
    const [header, , mac] = token.split('.');
    const promoted = `${header}.${encode(claims({ role: 'SUPER_ADMIN' }))}.${mac}`;
    expect(await verifyAccessToken(SECRET, promoted, NOW)).toBeNull();
    const flipped = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.slice(-1)}`;
    expect(await verifyAccessToken(SECRET, flipped, NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, `${token.split('.').slice(0, 2).join('.')}.`, NOW)).toBeNull();
    expect(await verifyAccessToken(`${SECRET}-other`, token, NOW)).toBeNull();
  });

  it('refuses an expired token, one at its expiry second, and one without exp', async () => {
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ exp: SECONDS - 1 })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ exp: SECONDS })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ exp: undefined })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ exp: String(SECONDS + 60) })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ exp: SECONDS + 1 })), NOW)).not.toBeNull();
  });

  it('refuses a token issued or valid only in the future', async () => {
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ iat: SECONDS + 30 })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ nbf: SECONDS + 30 })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ nbf: 'soon' })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ nbf: SECONDS })), NOW)).not.toBeNull();
  });

  it('pins the algorithm: none, HS512 and RS256 headers are refused even with a matching MAC', async () => {
    const noneToken = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims())}.`;
    expect(await verifyAccessToken(SECRET, noneToken, NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge({ alg: 'HS512', typ: 'JWT' }, claims(), { algorithm: 'sha512' }), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge({ alg: 'RS256', typ: 'JWT' }, claims()), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge({ typ: 'JWT' }, claims()), NOW)).toBeNull();
  });

  it('refuses odd headers: another typ or none, a crit extension', async () => {
    expect(await verifyAccessToken(SECRET, forge({ alg: 'HS256', typ: 'at+jwt' }, claims()), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge({ alg: 'HS256', typ: 'JWT', crit: ['exp'] }, claims()), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge({ alg: 'HS256' }, claims()), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge({ alg: 'HS256', typ: 'application/jwt' }, claims()), NOW)).not.toBeNull();
  });

  it('applies the time rules again each time a token it has already checked comes back', async () => {
    const token = await signAccessToken(SECRET, { id: 'user-1', role: 'USER' }, 'session-1', NOW);
    expect(await verifyAccessToken(SECRET, token, NOW)).not.toBeNull();
    expect(await verifyAccessToken(SECRET, token, new Date(NOW.getTime() + (ACCESS_TOKEN_TTL_SECONDS - 1) * 1000))).not.toBeNull();
    expect(await verifyAccessToken(SECRET, token, new Date(NOW.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000))).toBeNull();
    expect(await verifyAccessToken(SECRET, token, new Date(NOW.getTime() - 60_000))).toBeNull();
    const later = forge(HS256, claims({ nbf: SECONDS + 30 }));
    expect(await verifyAccessToken(SECRET, later, new Date(NOW.getTime() + 30_000))).not.toBeNull();
    expect(await verifyAccessToken(SECRET, later, NOW)).toBeNull();
  });

  it('never lets a token checked under one key pass under another', async () => {
    const token = await signAccessToken(SECRET, { id: 'user-1', role: 'USER' }, 'session-1', NOW);
    expect(await verifyAccessToken(SECRET, token, NOW)).not.toBeNull();
    expect(await verifyAccessToken(`${SECRET}-rotated`, token, NOW)).toBeNull();
  });

  it('refuses missing claims and malformed tokens', async () => {
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ sub: undefined })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, claims({ sid: 42 })), NOW)).toBeNull();
    expect(await verifyAccessToken(SECRET, forge(HS256, ['not', 'an', 'object']), NOW)).toBeNull();
    for (const junk of ['', 'a.b', 'a.b.c.d', '...', 'Bearer x.y.z', 'e30.e30.@@@']) {
      expect(await verifyAccessToken(SECRET, junk, NOW), junk).toBeNull();
    }
    const input = `${encode(HS256)}.not-json`;
    const mac = createHmac('sha256', SECRET).update(input).digest('base64url');
    expect(await verifyAccessToken(SECRET, `${input}.${mac}`, NOW)).toBeNull();
  });
});
