import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiSuccess } from '@parkpatrol/shared';

/** Writes the success envelope of design section 4. */
export function ok<T>(c: Context, data: T, options: { message?: string; status?: ContentfulStatusCode } = {}) {
  const body: ApiSuccess<T> = { success: true, data };
  if (options.message) body.message = options.message;
  return c.json(body, options.status ?? 200);
}
