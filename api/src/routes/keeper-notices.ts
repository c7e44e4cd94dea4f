import { Hono } from 'hono';
import {
  keeperLetterBatchInputSchema,
  keeperLettersInputSchema,
  keeperNoticesPostedInputSchema,
  keeperRepliesInputSchema,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { importKeeperReplies } from '../workflows/import-keeper-replies.ts';
import {
  listKeeperLetterBatches,
  readKeeperLetterBatch,
  readKeeperLetterBatchFile,
  startKeeperLetterBatch,
} from '../workflows/keeper-letter-batches.ts';
import { generateKeeperLetters, markKeeperNoticesPosted } from '../workflows/keeper-notices.ts';

/** Names and addresses: nothing may keep a copy on the way. */
const LETTERS_PDF_HEADERS = {
  'Content-Type': 'application/pdf',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** Keeper replies in, notices to keeper out: admins only (keeper data is personal data). */
export function createKeeperReplyRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().use('*', requireAuth(deps), requireAdmin).post('/', async (c) => {
    const input = await readJson(c, keeperRepliesInputSchema);
    return ok(c, 'POST /keeper-replies', await importKeeperReplies(deps.db, input.csv, c.get('user'), deps.now()));
  });
}

export function createKeeperNoticeRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .use('*', requireAuth(deps), requireAdmin)

    .post('/letters', async (c) => {
      const input = await readJson(c, keeperLettersInputSchema);
      const { bytes, fileName } = await generateKeeperLetters(
        deps,
        { pcnIds: input.pcnIds, postOn: input.postOn, appUrl: deps.config.appUrl, user: c.get('user') },
        deps.now(),
      );
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        ...LETTERS_PDF_HEADERS,
        'Content-Disposition': `attachment; filename="${fileName}"`,
      });
    })

    .post('/batches', async (c) => {
      const input = await readJson(c, keeperLetterBatchInputSchema);
      const batch = await startKeeperLetterBatch(deps, {
        pcnIds: input.pcnIds,
        postOn: input.postOn,
        appUrl: deps.config.appUrl,
        user: c.get('user'),
      });
      return ok(c, 'POST /keeper-notices/batches', batch, { status: 202 });
    })

    .get('/batches', async (c) => ok(c, 'GET /keeper-notices/batches', await listKeeperLetterBatches(deps.db)))

    .get('/batches/:id', async (c) => ok(c, 'GET /keeper-notices/batches/:id', await readKeeperLetterBatch(deps.db, c.req.param('id'))))

    .get('/batches/:id/file', async (c) => {
      const { bytes, fileName } = await readKeeperLetterBatchFile(deps, c.req.param('id'));
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        ...LETTERS_PDF_HEADERS,
        'Content-Disposition': `attachment; filename="${fileName}"`,
      });
    })

    .post('/posted', async (c) => {
      const input = await readJson(c, keeperNoticesPostedInputSchema);
      const results = await markKeeperNoticesPosted(deps.db, {
        ...input,
        user: c.get('user'),
        now: deps.now(),
        appUrl: deps.config.appUrl,
      });
      return ok(c, 'POST /keeper-notices/posted', { results });
    });
}
