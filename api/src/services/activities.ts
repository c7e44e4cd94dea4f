import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';

export const ACTIVITY_TYPES = [
  'LOGIN',
  'LOGOUT',
  'PCN_CREATED',
  'PCN_VIEWED',
  'PCN_EDITED',
  'PCN_DELETED',
  'PCN_STATUS_CHANGED',
  'ONBOARDING_SENT',
  'PASSWORD_RESET',
  'EMAIL_CHANGED',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Records one activity for analytics. Takes a db or a transaction, so it commits with the change. */
export async function recordActivity(
  db: Db,
  input: { userId: string | null; type: ActivityType; description?: string | null; pcnId?: string | null; now: Date },
): Promise<void> {
  await db
    .insertInto('activities')
    .values({
      id: randomUUID(),
      user_id: input.userId,
      activity_type: input.type,
      description: input.description ?? null,
      pcn_id: input.pcnId ?? null,
      created_at: input.now.toISOString(),
    })
    .execute();
}
