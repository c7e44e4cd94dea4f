import { Hono } from 'hono';
import { OPERATOR_LOGO_FIELD, operatorTermsInputSchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { readSmallForm } from '../http/small-form.ts';
import { readJson } from '../http/validation.ts';
import { changeOperatorTerms, readNoticeTerms, readOperatorSettings } from '../workflows/change-operator-terms.ts';
import { changeOperatorLogo, removeOperatorLogo } from '../workflows/operator-logo.ts';

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

      // The logo /charge shows beside the operator's name: one file, checked by its bytes.
      .put('/operator/logo', requireAdmin, async (c) => {
        const form = await readSmallForm(c);
        return ok(c, 'PUT /settings/operator/logo', await changeOperatorLogo(db, form[OPERATOR_LOGO_FIELD], c.get('user'), now()));
      })

      .delete('/operator/logo', requireAdmin, async (c) =>
        ok(c, 'DELETE /settings/operator/logo', await removeOperatorLogo(db, c.get('user'), now())),
      )

      // What the officer's notice to driver prints about the operator (the terms alone, not who changed them).
      .get('/notice-terms', async (c) => ok(c, 'GET /settings/notice-terms', await readNoticeTerms(db)))
  );
}
