import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Late appeals (decision 0023): an appeal made after the appeal period is taken and marked late;
// it holds nothing until an admin agrees to consider it (when, and who), or is declined as out of
// time. Appeals stored before this were all made in time (the API refused late ones).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('appeals')
    .addColumn('is_late', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('appeals').addColumn('considered_at', 'text').execute();
  await db.schema.alterTable('appeals').addColumn('considered_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('appeals').dropColumn('considered_by').execute();
  await db.schema.alterTable('appeals').dropColumn('considered_at').execute();
  await db.schema.alterTable('appeals').dropColumn('is_late').execute();
}
