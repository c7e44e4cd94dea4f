import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { lockRows } from '../db/dialect.ts';
import type { OneTimeTokensTable } from '../db/schema.ts';
import { generateOpaqueToken, hashToken } from '../services/crypto-tokens.ts';

export type OneTimePurpose = OneTimeTokensTable['purpose'];

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const ACCESS_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A sign-in link for a device the account's cap refuses: asked for on that device, used there at once. */
export const DEVICE_LINK_TTL_MS = 60 * 60 * 1000;

/**
 * Issues a single-use token and returns it in the clear (only its hash is stored). Issuing a
 * new one for the same user and purpose voids the unused older ones: only the newest link works.
 * `keepEarlier` leaves them working: for a link anyone may ask to be sent, so a stranger's
 * request does not void the one the owner holds (the request's own limit caps how many live).
 */
export async function issueOneTimeToken(
  db: Db,
  input: { userId: string; purpose: OneTimePurpose; ttlMs: number; now: Date; keepEarlier?: boolean },
): Promise<string> {
  const token = generateOpaqueToken();
  const stamp = input.now.toISOString();
  await db.transaction().execute(async (trx) => {
    // Two links issued at once (a double-clicked send, a bulk send beside a single one) must not
    // both survive: SQLite's one writer runs the two transactions in turn, and on PostgreSQL the
    // second waits here on the user's row until the first has committed, so its update then
    // voids the first one's token (READ COMMITTED reads anew per statement).
    await lockRows(trx, trx.selectFrom('users').select('id').where('id', '=', input.userId));
    if (!input.keepEarlier) {
      await trx
        .updateTable('one_time_tokens')
        .set({ used_at: stamp })
        .where('user_id', '=', input.userId)
        .where('purpose', '=', input.purpose)
        .where('used_at', 'is', null)
        .execute();
    }
    await trx
      .insertInto('one_time_tokens')
      .values({
        id: randomUUID(),
        user_id: input.userId,
        token_hash: hashToken(token),
        purpose: input.purpose,
        expires_at: new Date(input.now.getTime() + input.ttlMs).toISOString(),
        used_at: null,
        created_at: stamp,
      })
      .execute();
  });
  return token;
}

/**
 * Marks a valid token used and returns its user, or null when it is unknown, used, expired or
 * of another purpose. The update is conditional, so two requests racing with one token cannot
 * both succeed.
 */
export async function consumeOneTimeToken(
  db: Db,
  input: { token: string; purpose: OneTimePurpose; now: Date },
): Promise<{ userId: string } | null> {
  const stamp = input.now.toISOString();
  const row = await db
    .updateTable('one_time_tokens')
    .set({ used_at: stamp })
    .where('token_hash', '=', hashToken(input.token))
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', stamp)
    .returning(['user_id'])
    .executeTakeFirst();
  return row ? { userId: row.user_id } : null;
}

/**
 * Whether a token would be accepted now, without spending it: the reset screen says a dead link
 * is dead before anyone types a new password.
 */
export async function isOneTimeTokenValid(db: Db, input: { token: string; purpose: OneTimePurpose; now: Date }): Promise<boolean> {
  const row = await db
    .selectFrom('one_time_tokens')
    .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
    .select('one_time_tokens.id')
    .where('one_time_tokens.token_hash', '=', hashToken(input.token))
    .where('one_time_tokens.purpose', '=', input.purpose)
    .where('one_time_tokens.used_at', 'is', null)
    .where('one_time_tokens.expires_at', '>', input.now.toISOString())
    .where('users.is_active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The live token's row and user, without spending it: a device's sign-in link is spent only by
 * the right password, so a wrong guess leaves the owner's link working.
 */
export async function findOneTimeToken(
  db: Db,
  input: { token: string; purpose: OneTimePurpose; now: Date },
): Promise<{ id: string; userId: string } | null> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select(['id', 'user_id'])
    .where('token_hash', '=', hashToken(input.token))
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', input.now.toISOString())
    .executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id } : null;
}

/** Spends the token found by findOneTimeToken; false when another request spent it first. */
export async function spendOneTimeToken(db: Db, input: { id: string; now: Date }): Promise<boolean> {
  const spent = await db
    .updateTable('one_time_tokens')
    .set({ used_at: input.now.toISOString() })
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return spent !== undefined;
}
