import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, zstdCompress } from 'node:zlib';
import type { Context } from 'hono';
import { parseAccept } from 'hono/utils/accept';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { routePath } from 'hono/route';
import { splitRoute, type ApiResponseOf, type ApiSuccess, type JsonRoute } from '@parkpatrol/shared';
import { requestHeader } from './request-header.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const zstdAsync = promisify(zstdCompress);

/** Below this a compressed answer saves less than a round trip's worth of framing. */
export const COMPRESS_JSON_MIN_BYTES = 1024;

/**
 * Writes the success envelope (docs/architecture.md) for a route of the shared contract
 * (shared/src/api-contract.ts): the compiler holds `data` to what the web app reads, and the
 * route named must be the one answering, so a handler cannot answer under another's type.
 */
export function ok<R extends JsonRoute>(
  c: Context,
  route: R,
  data: ApiResponseOf<R>,
  options: { message?: string; status?: ContentfulStatusCode } = {},
): Promise<Response> {
  assertAnswering(c, route);
  const body: ApiSuccess<ApiResponseOf<R>> = { success: true, data };
  if (options.message) body.message = options.message;
  return sendJson(c, body, options.status ?? 200);
}

/** The API is mounted under /api; HEAD is answered by the GET handler. */
function assertAnswering(c: Context, route: JsonRoute): void {
  const { method, path } = splitRoute(route);
  const answering = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  if (answering !== method || routePath(c) !== `/api${path}`) {
    throw new Error(`The handler of ${c.req.method} ${routePath(c)} answered as ${route}`);
  }
}

/**
 * Writes a JSON answer, compressed by Accept-Encoding (zstd, else brotli, else gzip) when it is
 * 1 KB or more:
 * a page of ten notices is about 20 KB of repetitive JSON, a few KB compressed, on an officer's
 * one bar of signal. Not the /auth answers: they carry tokens, and compressing a secret beside
 * text an attacker can choose is how BREACH reads it. Evidence photos and the evidence pack are
 * not JSON and never come here.
 *
 * The text is compressed where it is made, not by a middleware afterwards: reading a response's
 * body back makes @hono/node-server build a full web Response and tee its stream, which cost more
 * than the rest of a signed-in request (scripts/bench/api.ts measures it). hono/compress is not
 * used either: it offers no brotli (a fifth fewer bytes than gzip on a list page), and c.json
 * sets no Content-Length for its threshold to go by. The compressing is Node's own zlib.
 */
export async function sendJson(c: Context, body: unknown, status: ContentfulStatusCode): Promise<Response> {
  const text = JSON.stringify(body);
  // Set through c.header, so the answer is made with a Headers object of its own: the headers
  // middlewares add afterwards (Cache-Control, the security headers) then stay on it however it
  // is read. Handed a plain object, @hono/node-server's lightweight Response gives them a copy,
  // which is lost if anything later reads the body through the web Response.
  c.header('Content-Type', 'application/json');
  const isCompressible =
    c.req.method !== 'HEAD' && !c.req.path.startsWith('/api/auth/') && Buffer.byteLength(text) >= COMPRESS_JSON_MIN_BYTES;
  if (!isCompressible) return c.body(text, status);
  c.header('Vary', 'Accept-Encoding', { append: true });
  const encoding = pickEncoding(requestHeader(c, 'Accept-Encoding'));
  if (!encoding) return c.body(text, status);
  // zstd at its fastest level makes a page of 100 notices as small as brotli at quality 4 for a
  // quarter of its CPU (0.3 against 1.2 ms), and Chromium and Firefox take it: the CPU is the
  // API's, shared by every request. Brotli quality 4 and gzip level 6 are for the others: most of
  // the saving for a fraction of the CPU of their highest settings.
  const compressed =
    encoding === 'zstd'
      ? await zstdAsync(text, { params: { [constants.ZSTD_c_compressionLevel]: 1 } })
      : encoding === 'br'
        ? await brotliAsync(text, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text) },
          })
        : await gzipAsync(text, { level: 6 });
  c.header('Content-Encoding', encoding);
  c.header('Content-Length', String(compressed.length));
  return c.body(new Uint8Array(compressed.buffer, compressed.byteOffset, compressed.byteLength), status);
}

/**
 * zstd if the client names it, else brotli, else gzip, else nothing; a q=0 refuses that encoding
 * (parsed by Hono). zstd only when named: a client's `*` may be older than it.
 */
export function pickEncoding(acceptEncoding: string | undefined): 'zstd' | 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Map(parseAccept(acceptEncoding).map((accept) => [accept.type.toLowerCase(), accept.q]));
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if ((accepted.get('zstd') ?? 0) > 0) return 'zstd';
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}
