import { UNSENT_STATES, type DraftRecord, type LocalDb } from './records.ts';

/** The outbox's view of the drafts: what waits for the server, and what is held until the next sign-in. */

/**
 * Filing order: when Submit first put the notice in the outbox (a refused notice sent again keeps
 * its place), then when it was begun, then its id, so two notices never tie.
 */
export function compareFilingOrder(
  a: Pick<DraftRecord, 'queuedAt' | 'createdAt' | 'id'>,
  b: Pick<DraftRecord, 'queuedAt' | 'createdAt' | 'id'>,
): number {
  return (a.queuedAt ?? a.createdAt) - (b.queuedAt ?? b.createdAt) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Drafts still waiting for the server, in filing order: the outbox rows on My PCNs and the dashboard. */
export async function findUnsentDrafts(db: LocalDb, userId: string): Promise<DraftRecord[]> {
  const rows = await db.drafts
    .where('[userId+state]')
    .anyOf(UNSENT_STATES.map((state) => [userId, state]))
    .toArray();
  return rows.sort(compareFilingOrder);
}

export async function countUnsentDrafts(db: LocalDb, userId: string): Promise<number> {
  return db.drafts
    .where('[userId+state]')
    .anyOf(UNSENT_STATES.map((state) => [userId, state]))
    .count();
}

/** A notice in the outbox with how many photos it carries, for the row that shows it. */
export type OutboxRow = DraftRecord & { photoCount: number };

/**
 * The outbox of one officer: the notices the server has not confirmed, oldest first. A sent one
 * leaves it at once: the PCN list, reloaded when the outbox sends, shows it (once).
 */
export async function findOutboxRows(db: LocalDb, userId: string): Promise<OutboxRow[]> {
  const drafts = await findUnsentDrafts(db, userId);
  return Promise.all(drafts.map(async (draft) => ({ ...draft, photoCount: await db.photos.where('draftId').equals(draft.id).count() })));
}

/** Number of the officer's notices the server confirmed since `since`: lists reload when it grows. */
export async function countSentDraftsSince(db: LocalDb, userId: string, since: number): Promise<number> {
  return db.drafts
    .where('[userId+state]')
    .equals([userId, 'sent'])
    .filter((draft) => (draft.sentAt ?? 0) >= since)
    .count();
}

/**
 * The session ended without a sign-in to take over (logout, or the server refused the refresh):
 * the officer's waiting notices say 'Sign in to send' and go out after the next sign-in.
 */
export async function holdDraftsForSignIn(db: LocalDb, userId: string, now = Date.now()): Promise<number> {
  return db.drafts.where('[userId+state]').equals([userId, 'queued']).modify({ state: 'needs-sign-in', nextAttemptAt: 0, updatedAt: now });
}

export async function resumeDraftsAfterSignIn(db: LocalDb, userId: string, now = Date.now()): Promise<number> {
  return db.drafts
    .where('[userId+state]')
    .equals([userId, 'needs-sign-in'])
    .modify({ state: 'queued', nextAttemptAt: 0, lastError: null, updatedAt: now });
}
