import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { forUpdate, lockRows } from '../db/dialect.ts';
import type { RefreshTokensTable } from '../db/schema.ts';
import { generateOpaqueToken, hashToken } from '../services/crypto-tokens.ts';
import { seal, unseal } from './sealed-text.ts';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * How long a rotated token may be presented again and get the same answer (REFRESH_REUSE_SECONDS,
 * default 30, at most 60): a refresh the page abandoned after the server rotated the token, or
 * two tabs refreshing at once, must not sign a patrol officer out. Identity providers call this
 * the reuse interval.
 */
export const DEFAULT_REFRESH_REUSE_SECONDS = 30;

type RefreshTokenState = Pick<RefreshTokensTable, 'expires_at' | 'rotated_at' | 'revoked_at' | 'successor_sealed' | 'rotated_device_hash'>;

export type RefreshDecision = 'rotate' | 'replay' | 'reuse-detected' | 'invalid';

/**
 * What presenting a stored refresh token at `now` means. Pure, so the rule is tested on its own.
 * A rotated token gets its rotation's answer again while the reuse window lasts, it is the one
 * rotated last in its family, and it comes from the device that rotated it (the same device token
 * as the rotation, `deviceHash`); any other reuse means it was copied. The window is there for the
 * officer's own tabs and cut-off retries, which carry that device's token; a copy of the refresh
 * token alone, replayed from elsewhere inside it, must not get the session too.
 */
export function decideRefresh(
  token: RefreshTokenState,
  now: Date,
  options: { isRotatedLast: boolean; reuseWindowMs: number; deviceHash?: string | null },
): RefreshDecision {
  const at = now.getTime();
  if (token.revoked_at !== null) return 'invalid';
  if (Date.parse(token.expires_at) <= at) return 'invalid';
  if (token.rotated_at === null) return 'rotate';
  const isFresh = at - Date.parse(token.rotated_at) <= options.reuseWindowMs;
  const isSameDevice = token.rotated_device_hash !== null && token.rotated_device_hash === (options.deviceHash ?? null);
  if (isFresh && options.isRotatedLast && isSameDevice && token.successor_sealed !== null) return 'replay';
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
      grace_used_at: null,
      successor_sealed: null,
      rotated_device_hash: null,
    })
    .execute();
  return { id, token };
}

/**
 * Starts a new family (one sign-in) and returns its first token in the clear; only its hash is
 * kept. The family id doubles as the session id in access tokens.
 */
export async function issueRefreshToken(db: Db, input: { userId: string; now: Date; familyId?: string }): Promise<string> {
  const { token } = await insertRefreshToken(db, { userId: input.userId, familyId: input.familyId ?? randomUUID(), now: input.now });
  return token;
}

/** `issuedAt`: when the answered pair was first issued (a replay's is its rotation's). */
export type RotateResult =
  | { ok: true; userId: string; familyId: string; refreshToken: string; issuedAt: Date }
  | { ok: false; reason: 'invalid' | 'reuse-detected' | 'user-inactive'; userId?: string };

/**
 * Exchanges a refresh token for a new one in the same family, and keeps the new one sealed on
 * the old row with the device that asked: presented again within the reuse window by that
 * device, the old token gets that same new one back. Reuse after the window, from another device
 * (or none), or of a token no longer the one rotated last means it was copied: the whole family
 * is revoked.
 */
export async function rotateRefreshToken(
  db: Db,
  input: { token: string; now: Date; reuseWindowMs: number; sealKey: Buffer; deviceToken?: string | undefined },
): Promise<RotateResult> {
  // Kept hashed like every token: the column names the device without holding its key.
  const deviceHash = input.deviceToken ? hashToken(input.deviceToken) : null;
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
        'refresh_tokens.successor_sealed',
        'refresh_tokens.rotated_device_hash',
        'users.is_active',
      ])
      .where('refresh_tokens.token_hash', '=', hashToken(input.token))
      // Two tabs refreshing with one token at once: SQLite's one writer runs them in turn; on
      // PostgreSQL the second waits on this row lock and then reads the first one's rotation, so
      // it becomes a replay (the same answer) instead of a second rotation of the same token.
      .$call((query) => forUpdate(trx, query, { of: 'refresh_tokens' }))
      .executeTakeFirst();
    if (!row) return { ok: false, reason: 'invalid' };

    const newest = await trx
      .selectFrom('refresh_tokens')
      .select((eb) => eb.fn.max('rotated_at').as('rotated_at'))
      .where('family_id', '=', row.family_id)
      .executeTakeFirst();
    const decision = decideRefresh(row, input.now, {
      isRotatedLast: row.rotated_at !== null && newest?.rotated_at === row.rotated_at,
      reuseWindowMs: input.reuseWindowMs,
      deviceHash,
    });
    if (decision === 'invalid') return { ok: false, reason: 'invalid', userId: row.user_id };
    if (decision === 'reuse-detected') {
      await revokeFamily(trx, { familyId: row.family_id, now: input.now });
      return { ok: false, reason: 'reuse-detected', userId: row.user_id };
    }
    if (!row.is_active) {
      await revokeFamily(trx, { familyId: row.family_id, now: input.now });
      return { ok: false, reason: 'user-inactive', userId: row.user_id };
    }
    if (decision === 'replay') {
      const successor = unseal(input.sealKey, row.successor_sealed!);
      if (successor === null) return { ok: false, reason: 'invalid', userId: row.user_id };
      return { ok: true, userId: row.user_id, familyId: row.family_id, refreshToken: successor, issuedAt: new Date(row.rotated_at!) };
    }

    const next = await insertRefreshToken(trx, { userId: row.user_id, familyId: row.family_id, now: input.now });
    await trx
      .updateTable('refresh_tokens')
      .set({
        rotated_at: stamp,
        replaced_by_id: next.id,
        successor_sealed: seal(input.sealKey, next.token),
        rotated_device_hash: deviceHash,
      })
      .where('id', '=', row.id)
      .execute();
    return { ok: true, userId: row.user_id, familyId: row.family_id, refreshToken: next.token, issuedAt: input.now };
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
 * Ends the session the token belongs to (its whole family, so a token handed out in the reuse
 * window dies with it). Returns the owner when something was still live, null otherwise. Call it
 * inside a transaction (see endFamily).
 */
export async function revokeRefreshTokenFamily(trx: Db, input: { token: string; now: Date }): Promise<{ userId: string } | null> {
  const row = await trx
    .selectFrom('refresh_tokens')
    .select(['family_id', 'user_id'])
    .where('token_hash', '=', hashToken(input.token))
    .executeTakeFirst();
  if (!row) return null;
  return (await endFamily(trx, { familyId: row.family_id, userId: row.user_id, now: input.now })) ? { userId: row.user_id } : null;
}

/**
 * Ends one session by its id (the `sid` of an access token). Only the owner's families match,
 * so a forged sid cannot end someone else's session. True when something was still live. Call
 * it inside a transaction (see endFamily).
 */
export async function revokeSession(trx: Db, input: { userId: string; familyId: string; now: Date }): Promise<boolean> {
  return endFamily(trx, input);
}

/**
 * Revokes what is still live of a family and says whether there was anything: the update is
 * conditional, so of two sign-outs at once only one finds the session live (and records a
 * LOGOUT), on either engine. On PostgreSQL the family's rows are locked first: a refresh of
 * the same session holds its token's row while it adds the next token, so the sign-out waits
 * for it, and the update, a new statement under READ COMMITTED, then sees and revokes that new
 * token too; a refresh arriving later waits for the sign-out and finds its token revoked.
 */
async function endFamily(trx: Db, input: { familyId: string; userId: string; now: Date }): Promise<boolean> {
  await lockRows(
    trx,
    trx.selectFrom('refresh_tokens').select('id').where('family_id', '=', input.familyId).where('user_id', '=', input.userId),
  );
  const revoked = await trx
    .updateTable('refresh_tokens')
    .set({ revoked_at: input.now.toISOString() })
    .where('family_id', '=', input.familyId)
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return revoked.length > 0;
}

/**
 * Signs the user out everywhere: password reset, deactivation, an admin setting a password. A
 * user changing their own password keeps the session they did it from (`exceptFamilyId`).
 */
export async function revokeUserRefreshTokens(db: Db, input: { userId: string; now: Date; exceptFamilyId?: string }): Promise<void> {
  let query = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: input.now.toISOString() })
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null);
  if (input.exceptFamilyId) query = query.where('family_id', '!=', input.exceptFamilyId);
  await query.execute();
}

/** Whether a session (refresh-token family) is still signed in: not revoked, its user active. */
export async function isSessionLive(db: Db, familyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
    .select('refresh_tokens.id')
    .where('refresh_tokens.family_id', '=', familyId)
    .where('refresh_tokens.revoked_at', 'is', null)
    .where('users.is_active', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
