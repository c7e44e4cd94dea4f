import { randomUUID } from 'node:crypto';
import type { ActivityType } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';

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
