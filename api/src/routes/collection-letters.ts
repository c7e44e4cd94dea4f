import { Hono } from 'hono';
import { collectionLettersInputSchema, collectionLettersPostedInputSchema, collectionLettersQuerySchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { generateCollectionLetters, listCollectionLetterQueue, markCollectionLettersPosted } from '../workflows/collection-letters.ts';

/** The chase after the notice to keeper (decision 0039): admins only, as the keeper notices are (letters carry the keeper's address). */
export function createCollectionLetterRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .use('*', requireAuth(deps), requireAdmin)

    .get('/', async (c) => {
      const { kind } = readQuery(c, collectionLettersQuerySchema);
      return ok(c, 'GET /collection-letters', await listCollectionLetterQueue(deps.db, kind, deps.now()));
    })

    .post('/letters', async (c) => {
      const input = await readJson(c, collectionLettersInputSchema);
      const { bytes, fileName } = await generateCollectionLetters(
        deps,
        { kind: input.kind, pcnIds: input.pcnIds, postOn: input.postOn, appUrl: deps.config.appUrl, user: c.get('user') },
        deps.now(),
      );
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        // Names and addresses: nothing may keep a copy on the way.
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    })

    .post('/posted', async (c) => {
      const input = await readJson(c, collectionLettersPostedInputSchema);
      const results = await markCollectionLettersPosted(deps.db, {
        ...input,
        user: c.get('user'),
        now: deps.now(),
        appUrl: deps.config.appUrl,
      });
      return ok(c, 'POST /collection-letters/posted', { results });
    });
}
