import type { Context } from 'hono';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { SERVER_MESSAGES, fieldErrors } from '@parkpatrol/shared';
import { AppError } from './app-error.ts';
import { isJsonMediaType } from './cross-site.ts';

/**
 * Validates anything against a shared schema, of zod's classic API or its functional one
 * (patrol-schemas.ts), refusing with 400 and per-field details.
 */
export function parseWith<S extends $ZodType>(schema: S, value: unknown): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) {
    const details = fieldErrors(result.error);
    const first = Object.values(details)[0];
    throw new AppError('VALIDATION_FAILED', first ?? SERVER_MESSAGES.invalidInput, { details });
  }
  return result.data;
}

/** Reads a JSON body; malformed JSON or a wrong content type is a 4xx, never a 500. */
export async function readJson<S extends $ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  let body: unknown = {};
  const text = await c.req.text();
  if (text.trim().length > 0) {
    if (!isJsonMediaType(type)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
    }
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('INVALID_JSON', SERVER_MESSAGES.invalidJson);
    }
  }
  return parseWith(schema, body);
}

export function readQuery<S extends $ZodType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.query());
}
