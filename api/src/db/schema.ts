/**
 * The tables as the application sees them, on both engines. They are generated from the
 * migrations (`npm run db:types`, scripts/db-types.ts) into schema.generated.ts, the one source of
 * truth; `npm run typecheck` fails while that file and the migrations disagree. This module only
 * gives them the short name every repository imports.
 */
export type * from './schema.generated.ts';
