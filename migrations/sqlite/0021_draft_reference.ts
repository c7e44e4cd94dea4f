import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// The reference a notice to driver printed before the notice was sent ('D-' and the first eight
// characters of the draft's id, upper-case; decision 0018), kept so the motorist can look the
// charge up by what the ticket says, and the notice to keeper can name it. The draft's id is the
// notice's Idempotency-Key: notices already filed get theirs from it; a key that is not a UUID
// (none the app sends) gives none. Indexed for the motorist's lookup; not unique, two drafts may
// share the first eight characters.
const HEX = '[0-9a-fA-F]';
const UUID_GLOB = [8, 4, 4, 4, 12].map((length) => HEX.repeat(length)).join('-');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pcns').addColumn('draft_reference', 'text').execute();
  await sql`update pcns set draft_reference = 'D-' || upper(substr(idempotency_key, 1, 8))
    where idempotency_key glob ${UUID_GLOB}`.execute(db);
  await db.schema.createIndex('pcns_draft_reference').on('pcns').column('draft_reference').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pcns_draft_reference').execute();
  await db.schema.alterTable('pcns').dropColumn('draft_reference').execute();
}
