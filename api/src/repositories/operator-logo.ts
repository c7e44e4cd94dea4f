import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { TermsActor } from './terms.ts';

export type StoredOperatorLogo = { image: Uint8Array; sha256: string };

/** A logo the history holds, by its hash: what its public address names. */
export async function findOperatorLogoByHash(db: Db, sha256: string): Promise<StoredOperatorLogo | null> {
  const row = await db.selectFrom('operator_logos').select('image').where('sha256', '=', sha256).limit(1).executeTakeFirst();
  return row?.image ? { image: row.image, sha256 } : null;
}

/** The hash of the logo in force: the row of its history inserted last (rowid: changes may share a millisecond); null when none is set or it was removed. */
export async function findOperatorLogoHash(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('operator_logos')
    .select('sha256')
    .orderBy(sql`rowid`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.sha256 ?? null;
}

/** One change to the logo: a new picture, or null for its removal. */
export async function insertOperatorLogoChange(
  trx: Db,
  input: { logo: StoredOperatorLogo | null; actor: TermsActor; now: string },
): Promise<void> {
  await trx
    .insertInto('operator_logos')
    .values({
      id: randomUUID(),
      image: input.logo ? Buffer.from(input.logo.image) : null,
      sha256: input.logo?.sha256 ?? null,
      actor_id: input.actor.id,
      actor_name: input.actor.name,
      created_at: input.now,
    })
    .execute();
}
