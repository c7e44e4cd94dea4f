import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { createMiddleware } from 'hono/factory';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a compressed answer saves less than a round trip's worth of framing. */
export const COMPRESS_JSON_MIN_BYTES = 1024;

/**
 * Compresses JSON answers of 1 KB or more by Accept-Encoding (brotli, else gzip): a page of ten
 * notices is about 20 KB of repetitive JSON, a few KB compressed, on an officer's one bar of
 * signal. Only JSON: evidence photos are already compressed and keep their own caching, and the
 * evidence pack is a PDF of JPEGs. Not the /auth answers: they carry tokens, and compressing a
 * secret beside text an attacker can choose is how BREACH reads it.
 *
 * hono/compress is not used: c.json sets no Content-Length, so its size threshold never applies,
 * and it offers no brotli.
 */
export const compressJson = createMiddleware(async (c, next) => {
  await next();
  const res = c.res;
  if (c.req.method === 'HEAD' || c.req.path.startsWith('/api/auth/')) return;
  if (!res.body || res.headers.has('Content-Encoding') || !res.headers.get('Content-Type')?.startsWith('application/json')) return;
  const body = Buffer.from(await res.clone().arrayBuffer());
  if (body.length < COMPRESS_JSON_MIN_BYTES) return;
  c.header('Vary', 'Accept-Encoding', { append: true });
  const encoding = pickEncoding(c.req.header('Accept-Encoding'));
  if (!encoding) return;
  // Quality 4 / level 6: most of the saving for a fraction of the CPU of the highest settings.
  const compressed =
    encoding === 'br'
      ? await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : await gzipAsync(body, { level: 6 });
  const headers = new Headers(c.res.headers);
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(compressed.length));
  c.res = new Response(compressed, { status: res.status, statusText: res.statusText, headers });
});

/** brotli if the client takes it, else gzip, else nothing; a q=0 refuses that encoding. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name!, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}
