import { Hono } from 'hono';
import { operatorTermsInputSchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readJson } from '../http/validation.ts';
import { changeOperatorTerms, readNoticeTerms, readOperatorSettings } from '../workflows/change-operator-terms.ts';

export function createSettingsRoutes(deps: AppDeps) {
  const { db, now } = deps;
  return (
    new Hono<AppEnv>()
      .use('*', requireAuth(deps))

      .get('/operator', requireAdmin, async (c) => ok(c, 'GET /settings/operator', await readOperatorSettings(db)))

      .put('/operator', requireAdmin, async (c) => {
        const input = await readJson(c, operatorTermsInputSchema);
        return ok(c, 'PUT /settings/operator', await changeOperatorTerms(db, input, c.get('user'), now()));
      })

      // What the officer's notice to driver prints about the operator (the terms alone, not who changed them).
      .get('/notice-terms', async (c) => ok(c, 'GET /settings/notice-terms', await readNoticeTerms(db)))
  );
}
