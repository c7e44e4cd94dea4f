/**
 * Answers the typecheck must refuse: each line carries `@ts-expect-error`, so if `ok` stops
 * holding a handler to the shared contract, the directive goes unused and `npm run typecheck`
 * fails. Never imported and never run; it exists for the compiler.
 */
import type { Context } from 'hono';
import { ok } from './respond.ts';

export async function refusedByTheCompiler(c: Context): Promise<void> {
  // @ts-expect-error a route the contract does not have
  await ok(c, 'GET /pcn/:id', null);

  // @ts-expect-error an answer missing what the web app reads (User has no `pcnNumber`, and lacks the rest)
  await ok(c, 'GET /users/profile', { pcnNumber: 'PCN-1' });

  // @ts-expect-error a list answered where one entity is expected
  await ok(c, 'GET /car-parks/all', []);

  // @ts-expect-error a file route answered as JSON
  await ok(c, 'GET /pcns/:id/evidence-packs/:packId/file', new Blob());
}
