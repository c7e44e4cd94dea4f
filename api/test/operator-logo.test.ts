import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import sharp from 'sharp';
import {
  MAX_OPERATOR_LOGO_BYTES,
  OPERATOR_LOGO_MESSAGES,
  type OperatorLogoResponse,
  type OperatorSettingsResponse,
  type PublicOperator,
} from '@parkpatrol/shared';
import { makeJpeg, makeOversizedJpeg } from './fixtures.ts';
import { logoForm } from './support/operator-logo.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/** A wide PNG, larger than the box the logo is kept in. */
async function widePng(width: number, height: number): Promise<Uint8Array> {
  const png = await sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}

/** The operator's logo: set by an admin in Operator Settings, checked by its bytes, shown publicly on /charge. */
describe("the operator's logo", () => {
  let t: TestApp;
  let admin: Session;
  let officer: Session;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signedInUser('ADMIN', { firstName: 'Lena', lastName: 'Logo' });
    officer = await t.signedInUser('USER');
  });
  afterAll(() => t.close());

  const upload = (form: FormData, token = admin.token) => t.request('PUT', '/settings/operator/logo', { token, body: form });
  const publicOperator = async () => (await t.request('GET', '/public/charges/operator')).json.data as PublicOperator;

  it('refuses a text file named .png, naming the logo field, and keeps no logo', async () => {
    const text = new TextEncoder().encode('<svg onload="alert(1)">not a picture</svg>');
    const res = await upload(logoForm(text, 'logo.png', 'image/png'));
    expect(res.status, res.text).toBe(400);
    expect(res.json.details).toEqual({ logo: OPERATOR_LOGO_MESSAGES.notAnImage });
    // A PNG signature in front of bytes that do not decode is refused the same.
    const fake = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)]);
    expect((await upload(logoForm(fake, 'logo.png', 'image/png'))).json.details).toEqual({ logo: OPERATOR_LOGO_MESSAGES.notAnImage });
    // No file at all.
    const empty = new FormData();
    empty.append('logo', 'not a file');
    expect((await upload(empty)).json.details).toEqual({ logo: OPERATOR_LOGO_MESSAGES.required });
    expect((await publicOperator()).logoUrl).toBeNull();
  });

  it('refuses a logo over its size limit', async () => {
    const res = await upload(logoForm(makeOversizedJpeg(MAX_OPERATOR_LOGO_BYTES + 1)));
    expect(res.status, res.text).toBe(413);
    expect(res.json.details).toEqual({ logo: OPERATOR_LOGO_MESSAGES.tooLarge });
    expect((await publicOperator()).logoUrl).toBeNull();
  });

  it("is the admins' to set and remove: an officer is refused 403", async () => {
    expect((await upload(logoForm(makeJpeg(4)), officer.token)).status).toBe(403);
    expect((await t.request('DELETE', '/settings/operator/logo', { token: officer.token })).status).toBe(403);
    expect((await t.request('PUT', '/settings/operator/logo', { body: logoForm(makeJpeg(4)) })).status).toBe(401);
  });

  it('keeps a large picture as a PNG fitted inside 320x120, served publicly under its hash, cacheable', async () => {
    const res = await upload(logoForm(await widePng(1600, 400), 'brand.png', 'image/png'));
    expect(res.status, res.text).toBe(200);
    const { logoUrl } = res.json.data as OperatorLogoResponse;
    expect(logoUrl).toMatch(/^\/api\/public\/charges\/operator\/logo\/[0-9a-f]{64}\.png$/);
    expect((await publicOperator()).logoUrl).toBe(logoUrl);
    expect(((await t.request('GET', '/settings/operator', { token: admin.token })).json.data as OperatorSettingsResponse).logoUrl).toBe(
      logoUrl,
    );

    // No sign-in: the motorist's page draws it.
    const served = await t.app.request(logoUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('public');
    expect(served.headers.get('etag')).toBe(`"${/([0-9a-f]{64})\.png$/.exec(logoUrl!)![1]}"`);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 320, height: 80 });

    // A small picture is never enlarged.
    const small = await upload(logoForm(makeJpeg(5, 40)));
    const smallUrl = (small.json.data as OperatorLogoResponse).logoUrl!;
    expect(smallUrl).not.toBe(logoUrl);
    const smallMeta = await sharp(Buffer.from(await (await t.app.request(smallUrl)).arrayBuffer())).metadata();
    expect(smallMeta).toMatchObject({ format: 'png', width: 40, height: 40 });
    // An address once given out keeps its picture; one never given out is 404.
    expect((await t.app.request(logoUrl!)).status).toBe(200);
    expect((await t.app.request(logoUrl!.replace(/[0-9a-f]{64}/, 'a'.repeat(64)))).status).toBe(404);
    expect((await t.app.request('/api/public/charges/operator/logo/..%2Fsecret.png')).status).toBe(404);
  });

  it('is removed, and each change is kept with who made it', async () => {
    const res = await t.request('DELETE', '/settings/operator/logo', { token: admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({ logoUrl: null });
    expect((await publicOperator()).logoUrl).toBeNull();
    // Removing none again writes nothing.
    await t.request('DELETE', '/settings/operator/logo', { token: admin.token });
    const history = await t.db
      .selectFrom('operator_logos')
      .select(['actor_name', 'sha256'])
      .orderBy(sql`rowid`)
      .execute();
    expect(history.map((row) => [row.actor_name, row.sha256 === null])).toEqual([
      ['Lena Logo', false],
      ['Lena Logo', false],
      ['Lena Logo', true],
    ]);
  });
});
