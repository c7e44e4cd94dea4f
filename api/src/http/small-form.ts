import type { Context } from 'hono';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import { AppError } from './app-error.ts';

/**
 * A multipart body small enough to hold in memory: the app's JSON body limit has already capped
 * it (app.ts), so unlike evidence uploads it need not be spooled to disk. Its parts by name.
 */
export async function readSmallForm(c: Context): Promise<Record<string, string | File>> {
  if (!(c.req.header('content-type')?.toLowerCase() ?? '').startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.invalidMultipart);
  }
  try {
    return (await c.req.parseBody()) as Record<string, string | File>;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_REQUEST', SERVER_MESSAGES.invalidMultipart);
  }
}
