import type { Selectable } from 'kysely';
import type { Database as Generated } from './schema.generated.ts';
import type { Database as Written } from './schema.ts';

/*
 * The connection is typed by the generated tables (schema.generated.ts, from the migrations);
 * schema.ts names the same rows for the modules that import a table's type, with its comments.
 * This does not compile while the two read a row differently: a table missing from either, a
 * column of another type, or nullable in one only.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Disagreeing = {
  [T in keyof Generated | keyof Written]: T extends keyof Generated & keyof Written
    ? Same<Selectable<Generated[T]>, Selectable<Written[T]>> extends true
      ? never
      : T
    : T;
}[keyof Generated | keyof Written];

/** `true` only while none disagree; otherwise the error names the tables. */
export const schemasAgree: [Disagreeing] extends [never] ? true : Disagreeing = true;
