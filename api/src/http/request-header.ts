import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';

/**
 * One request header, as `c.req.header(name)` gives it, read from the request Node has already
 * parsed when there is one. Asking Hono's request for any header makes @hono/node-server build a
 * whole web Headers from every raw header, checking each name and value: on the signed-in hot
 * path (the bearer token, Accept-Encoding) that was a tenth of the request. A header
 * sent more than once is joined with ', ', as a web Headers joins it, so a request with two
 * Authorization headers is refused here exactly as it is through Hono. Under `app.request()`
 * (the API tests) there is no Node request, and Hono's is read.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const raw = (c.env as Partial<HttpBindings> | undefined)?.incoming?.rawHeaders;
  if (!raw) return c.req.header(name);
  const wanted = name.toLowerCase();
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const header = raw[i]!;
    if (header.length === wanted.length && header.toLowerCase() === wanted)
      value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}
