import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { RefreshTokensTable } from '../db/schema.ts';
import { generateOpaqueToken, hashToken } from '../services/crypto-tokens.ts';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A token rotated this recently may be presented again: two tabs refreshing at once, or an
 * answer lost on a bad network, must not sign a patrol officer out (design section 7).
 */
export const REFRESH_REUSE_GRACE_MS = 30 * 1000;

type RefreshTokenState = Pick<RefreshTokensTable, 'expires_at' | 'rotated_at' | 'revoked_at'>;

export type RefreshDecision = 'rotate' | 'grace-replay' | 'reuse-detected' | 'invalid';

/** What presenting a stored refresh token at `now` means. Pure, so the rule is tested on its own. */
export function decideRefresh(token: RefreshTokenState, now: Date): RefreshDecision {
  const at = now.getTime();
  if (token.revoked_at !== null) return 'invalid';
  if (Date.parse(token.expires_at) <= at) return 'invalid';
  if (token.rotated_at === null) return 'rotate';
  if (at - Date.parse(token.rotated_at) <= REFRESH_REUSE_GRACE_MS) return 'grace-replay';
  return 'reuse-detected';
}

async function insertRefreshToken(db: Db, input: { userId: string; familyId: string; now: Date }): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = generateOpaqueToken();
  await db
    .insertInto('refresh_tokens')
    .values({
      id,
      user_id: input.userId,
      token_hash: hashToken(token),
      family_id: input.familyId,
      expires_at: new Date(input.now.getTime() + REFRESH_TOKEN_TTL_MS).toISOString(),
      rotated_at: null,
      replaced_by_id: null,
      revoked_at: null,
      created_at: input.now.toISOString(),
    })
    .execute();
  return { id, token };
}

/** Starts a new family (one sign-in) and returns its first token in the clear; only its hash is kept. */
export async function issueRefreshToken(db: Db, input: { userId: string; now: Date }): Promise<string> {
  const { token } = await insertRefreshToken(db, { userId: input.userId, familyId: randomUUID(), now: input.now });
  return token;
}

export type RotateResult =
  | { ok: true; userId: string; refreshToken: string }
  | { ok: false; reason: 'invalid' | 'reuse-detected' | 'user-inactive'; userId?: string };

/**
 * Exchanges a refresh token for a new one in the same family. Reuse of a token rotated longer
 * ago than the grace period means it was copied: the whole family is revoked.
 */
export async function rotateRefreshToken(db: Db, input: { token: string; now: Date }): Promise<RotateResult> {
  const stamp = input.now.toISOString();
  return db.transaction().execute(async (trx): Promise<RotateResult> => {
    const row = await trx
      .selectFrom('refresh_tokens')
      .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
      .select([
        'refresh_tokens.id',
        'refresh_tokens.user_id',
        'refresh_tokens.family_id',
        'refresh_tokens.expires_at',
        'refresh_tokens.rotated_at',
        'refresh_tokens.revoked_at',
        'users.is_active',
      ])
      .where('refresh_tokens.token_hash', '=', hashToken(input.token))
      .executeTakeFirst();
    if (!row) return { ok: false, reason: 'invalid' };

    const decision = decideRefresh(row, input.now);
    if (decision === 'invalid') return { ok: false, reason: 'invalid', userId: row.user_id };
    if (decision === 'reuse-detected') {
      await revokeFamily(trx, { familyId: row.family_id, now: input.now });
      return { ok: false, reason: 'reuse-detected', userId: row.user_id };
    }
    if (row.is_active !== 1) {
      await revokeFamily(trx, { familyId: row.family_id, now: input.now });
      return { ok: false, reason: 'user-inactive', userId: row.user_id };
    }

    const next = await insertRefreshToken(trx, { userId: row.user_id, familyId: row.family_id, now: input.now });
    if (decision === 'rotate') {
      // The grace window counts from the first rotation; a grace replay leaves it where it is.
      await trx
        .updateTable('refresh_tokens')
        .set({ rotated_at: stamp, replaced_by_id: next.id })
        .where('id', '=', row.id)
        .execute();
    }
    return { ok: true, userId: row.user_id, refreshToken: next.token };
  });
}

async function revokeFamily(db: Db, input: { familyId: string; now: Date }): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: input.now.toISOString() })
    .where('family_id', '=', input.familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Ends the session the token belongs to (its whole family, so a sibling handed out in the grace
 * window dies with it). Returns the owner when something was still live, null otherwise.
 */
export async function revokeRefreshTokenFamily(db: Db, input: { token: string; now: Date }): Promise<{ userId: string } | null> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'user_id', 'revoked_at'])
    .where('token_hash', '=', hashToken(input.token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) return null;
  await revokeFamily(db, { familyId: row.family_id, now: input.now });
  return { userId: row.user_id };
}

/** Signs the user out everywhere: password reset, deactivation, an admin setting a password. */
export async function revokeUserRefreshTokens(db: Db, input: { userId: string; now: Date }): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: input.now.toISOString() })
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .execute();
}
