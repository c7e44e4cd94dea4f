import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_SCRIPT_PREFIX } from '@parkpatrol/shared';
import { COMPRESS_JSON_MIN_BYTES } from '../src/http/respond.ts';
import { createPcnViaApi, makeJpeg } from './fixtures.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * The web app and the API as they travel to a phone on a poor link. The
 * folder stands in for web/dist and is precompressed by the build's own step
 * (web/scripts/precompress.mjs), so what is tested is what `npm run build` ships.
 */
const BOOT_SCRIPT = 'document.documentElement.setAttribute("data-boot","sign-in")';
const repeated = (line: string) => Array.from({ length: 200 }, (_, i) => `${line} ${i}`).join('\n');
const FILES: Record<string, { body: string; type: RegExp }> = {
  'index.html': {
    body: `<!doctype html><title>ParkPatrol Self Ticketing</title><script>${BOOT_SCRIPT}</script>\n${repeated('<p>shell</p>')}`,
    type: /^text\/html/,
  },
  'sw.js': { body: repeated('self.addEventListener("fetch", () => {});'), type: /javascript/ },
  'manifest.webmanifest': {
    body: JSON.stringify({ name: 'ParkPatrol Self Ticketing', icons: Array.from({ length: 40 }, (_, i) => ({ src: `/icons/${i}.png` })) }),
    type: /manifest\+json|json/,
  },
  'assets/index-abc123.js': { body: repeated('export const x = () => "officer app";'), type: /javascript/ },
  [`${WORKER_SCRIPT_PREFIX}compress-abc123.js`]: { body: repeated('self.onmessage = () => {};'), type: /javascript/ },
  'assets/index-abc123.css': { body: repeated('.card { padding: 16px; }'), type: /^text\/css/ },
  'icons/logo.svg': { body: `<svg xmlns="http://www.w3.org/2000/svg">${repeated('<path d="M0 0h1"/>')}</svg>`, type: /^image\/svg\+xml/ },
};
const FAVICON = readFileSync(resolve(import.meta.dirname, '../../web/public/favicon.ico'));

let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'parkpatrol-dist-'));
  for (const [name, { body }] of Object.entries(FILES)) {
    mkdirSync(join(dist, name, '..'), { recursive: true });
    writeFileSync(join(dist, name), body);
  }
  writeFileSync(join(dist, 'favicon.ico'), FAVICON);
  execFileSync(process.execPath, [resolve(import.meta.dirname, '../../web/scripts/precompress.mjs'), dist]);
  t = await createTestApp({ config: { webDistDir: dist } });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => t.app.request(path, { headers });

function decode(bytes: Buffer, encoding: string | null): string {
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  if (encoding === 'zstd') return zstdDecompressSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

describe('the web app on the wire', () => {
  it('sends every text file brotli- or gzip-compressed by Accept-Encoding, with Vary, and the same text once decoded', async () => {
    for (const [name, { body, type }] of Object.entries(FILES)) {
      for (const [accept, encoding] of [
        ['br, gzip', 'br'],
        ['gzip, deflate', 'gzip'],
        ['identity', null],
      ] as const) {
        const res = await get(`/${name}`, { 'accept-encoding': accept });
        const where = `${name} for ${accept}`;
        expect(res.status, where).toBe(200);
        expect(res.headers.get('content-type'), where).toMatch(type);
        expect(res.headers.get('content-encoding'), where).toBe(encoding);
        expect(res.headers.get('vary'), where).toMatch(/accept-encoding/i);
        const bytes = Buffer.from(await res.arrayBuffer());
        if (encoding) expect(bytes.length, where).toBeLessThan(Buffer.byteLength(body) / 3);
        expect(decode(bytes, encoding), where).toBe(body);
      }
    }
  });

  it('sends a screen address the compressed index.html', async () => {
    const res = await get('/pcn/new', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(decode(Buffer.from(await res.arrayBuffer()), 'br')).toBe(FILES['index.html']!.body);
  });

  it('revalidates index.html, sw.js and the manifest with an ETag: unchanged is a 304 with no body', async () => {
    for (const path of ['/', '/index.html', '/login', '/sw.js', '/manifest.webmanifest']) {
      for (const accept of ['br', 'gzip', '']) {
        const first = await get(path, { 'accept-encoding': accept });
        const tag = first.headers.get('etag');
        expect(tag, path).toMatch(/^(W\/)?"[^"]+"$/);
        expect(first.headers.get('cache-control'), path).toBe('no-cache');
        const again = await get(path, { 'accept-encoding': accept, 'if-none-match': tag! });
        expect(again.status, path).toBe(304);
        expect(await again.text(), path).toBe('');
        expect(again.headers.get('etag'), path).toBe(tag);
        expect(again.headers.get('vary'), path).toMatch(/accept-encoding/i);
      }
    }
    // Another version of the file is sent whole.
    expect((await get('/sw.js', { 'if-none-match': '"an-older-build"' })).status).toBe(200);
  });

  it('keeps hashed assets for a year', async () => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': 'br' });
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it("allows the boot screen's inline script by its hash, and no other inline script", async () => {
    const csp = (await get('/login')).headers.get('content-security-policy') ?? '';
    const scriptSrc =
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src')) ?? '';
    const hash = createHash('sha256').update(BOOT_SCRIPT).digest('base64');
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
  });

  it('sends the document-only security headers with pages, sw.js and SVG, and only what applies with scripts, styles and images', async () => {
    const DOCUMENT_ONLY = [
      'x-frame-options',
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-xss-protection',
      'x-download-options',
      'x-dns-prefetch-control',
      'x-permitted-cross-domain-policies',
    ];
    const headersOf = async (path: string) => (await get(path, { 'accept-encoding': 'br' })).headers;
    for (const path of ['/login', '/index.html', '/sw.js', '/icons/logo.svg']) {
      const headers = await headersOf(path);
      for (const name of [...DOCUMENT_ONLY, 'content-security-policy', 'referrer-policy', 'x-content-type-options'])
        expect(headers.get(name), `${path} ${name}`).not.toBeNull();
    }
    // A worker obeys the policy sent with its own script; a module script obeys its page's.
    const worker = await headersOf(`/${WORKER_SCRIPT_PREFIX}compress-abc123.js`);
    for (const name of DOCUMENT_ONLY) expect(worker.get(name), `worker ${name}`).toBeNull();
    expect(worker.get('content-security-policy')).toContain("script-src 'self'");
    expect(worker.get('x-content-type-options')).toBe('nosniff');
    for (const path of ['/assets/index-abc123.js', '/assets/index-abc123.css', '/favicon.ico', '/manifest.webmanifest']) {
      const headers = await headersOf(path);
      for (const name of [...DOCUMENT_ONLY, 'content-security-policy', 'referrer-policy'])
        expect(headers.get(name), `${path} ${name}`).toBeNull();
      expect(headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
    }
    // The API keeps every header whatever it answers.
    expect((await get('/api/health')).headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers /favicon.ico with the icon, not the page', async () => {
    const res = await get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect(Buffer.from(await res.arrayBuffer()).equals(FAVICON)).toBe(true);
  });
});

describe('the API on the wire', () => {
  it('compresses JSON answers of 1 KB or more, leaves small ones, sign-in answers and evidence photos as they are', async () => {
    const officer = await t.signedInUser('USER');
    const carPark = await t.createCarPark({ assignTo: [officer.id] });
    const photo = makeJpeg(5, 64);
    for (let i = 0; i < 3; i += 1) await createPcnViaApi(t, officer.token, carPark.id, { images: [{ bytes: photo, name: 'a.jpg' }] });
    const auth = { authorization: `Bearer ${officer.token}` };

    const list = await get('/api/pcns', { ...auth, 'accept-encoding': 'gzip, br' });
    expect(list.headers.get('content-encoding')).toBe('br');
    expect(list.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const compressed = Buffer.from(await list.arrayBuffer());
    const plain = await (await get('/api/pcns', { ...auth })).text();
    expect(Buffer.byteLength(plain)).toBeGreaterThan(COMPRESS_JSON_MIN_BYTES);
    expect(compressed.length).toBeLessThan(Buffer.byteLength(plain) / 2);
    const decoded = JSON.parse(decode(compressed, 'br'));
    expect(decoded.data.pcns).toHaveLength(3);

    // zstd where the client names it (Chromium and Firefox): about as small, for a quarter of brotli's CPU.
    const zstd = await get('/api/pcns', { ...auth, 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(zstd.headers.get('content-encoding')).toBe('zstd');
    const zstdBytes = Buffer.from(await zstd.arrayBuffer());
    expect(zstdBytes.length).toBeLessThan(Buffer.byteLength(plain) / 2);
    expect(JSON.parse(decode(zstdBytes, 'zstd')).data.pcns).toHaveLength(3);

    const gz = await get('/api/pcns', { ...auth, 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(decode(Buffer.from(await gz.arrayBuffer()), 'gzip')).data.pcns).toHaveLength(3);
    expect((await get('/api/pcns', { ...auth, 'accept-encoding': 'br;q=0, gzip;q=0' })).headers.get('content-encoding')).toBeNull();

    const small = await get('/api/health', { 'accept-encoding': 'br' });
    expect(small.headers.get('content-encoding')).toBeNull();

    const login = await t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
      body: JSON.stringify({ email: officer.email, password: officer.password }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('content-encoding')).toBeNull();

    // The list carries only the first photo's thumbnail; the photo itself comes with the PCN.
    const detail = JSON.parse(await (await get(`/api/pcns/${decoded.data.pcns[0].id}`, auth)).text());
    const image = detail.data.images[0].url as string;
    const jpeg = await get(image, { 'accept-encoding': 'br, gzip' });
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await jpeg.arrayBuffer()).equals(Buffer.from(photo))).toBe(true);
  });
});
