import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { generateOpaqueToken, hashToken } from '../services/crypto-tokens.ts';

/**
 * Devices that signed in before. A successful sign-in hands the app a device token, which the app
 * keeps on the phone (also across sign-out) and sends with every later sign-in for that account.
 * The token signs nobody in: the password is still checked. It only lets a guess past the
 * account's cap across addresses (auth/sign-in-limiter.ts), so a stranger spraying guesses from
 * many addresses cannot lock the owner out of the phone they use, while every other device must
 * wait or use the emailed reset.
 */
export const KNOWN_DEVICE_TTL_MS = 180 * 24 * 60 * 60 * 1000;
/** Devices kept per account; signing in on one more forgets the one unused longest. */
export const KNOWN_DEVICES_PER_USER = 10;

/** The id of the account's device that holds this token, if it is one and still remembered. */
export async function recogniseDevice(db: Db, input: { userId: string; token: string | undefined; now: Date }): Promise<string | null> {
  if (!input.token) return null;
  const row = await db
    .selectFrom('known_devices')
    .select('id')
    .where('token_hash', '=', hashToken(input.token))
    .where('user_id', '=', input.userId)
    .where('last_used_at', '>', new Date(input.now.getTime() - KNOWN_DEVICE_TTL_MS).toISOString())
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * After a successful sign-in: the device's token, kept for another while if the device was known
 * (the same token goes back), else a new one. The account keeps its most recently used devices only.
 */
export async function rememberDevice(
  db: Db,
  input: { userId: string; known: { id: string; token: string } | null; now: Date },
): Promise<string> {
  const stamp = input.now.toISOString();
  if (input.known) {
    await db.updateTable('known_devices').set({ last_used_at: stamp }).where('id', '=', input.known.id).execute();
    return input.known.token;
  }
  const token = generateOpaqueToken();
  await db
    .insertInto('known_devices')
    .values({ id: randomUUID(), user_id: input.userId, token_hash: hashToken(token), created_at: stamp, last_used_at: stamp })
    .execute();
  await db
    .deleteFrom('known_devices')
    .where('user_id', '=', input.userId)
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('known_devices')
        .select('id')
        .where('user_id', '=', input.userId)
        .orderBy('last_used_at', 'desc')
        .orderBy('id')
        .limit(KNOWN_DEVICES_PER_USER),
    )
    .execute();
  return token;
}

/** A password reset by email forgets every device: whoever knew the old password may hold one. */
export async function forgetDevices(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('known_devices').where('user_id', '=', userId).execute();
}
