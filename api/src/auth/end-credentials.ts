import type { Db } from '../db/database.ts';
import { revokeUserRefreshTokens } from './refresh-tokens.ts';

/**
 * Every credential ends with the account's password (ASVS 3.3): a password change or reset, a
 * deactivation or an email change ends the account's sessions (all but `exceptFamilyId`, the
 * session that made the change) and voids its unused access links and reset tokens, so a link
 * sitting in an old mailbox signs nobody in afterwards.
 */
export async function endUserCredentials(db: Db, input: { userId: string; now: Date; exceptFamilyId?: string }): Promise<void> {
  await revokeUserRefreshTokens(db, input);
  await db
    .updateTable('one_time_tokens')
    .set({ used_at: input.now.toISOString() })
    .where('user_id', '=', input.userId)
    .where('used_at', 'is', null)
    .execute();
}
