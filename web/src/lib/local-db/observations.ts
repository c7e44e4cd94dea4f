import type { DraftRecord, LocalDb, ObservationSyncStatus } from './records.ts';

/** Observations: the stay rule's two visits (docs/decisions/0012), kept as drafts until the notice is filed. */

export type ObservationRow = DraftRecord & { photoCount: number };

/** One officer's open observations (due first) and closed ones (latest first). */
export async function findObservations(db: LocalDb, userId: string): Promise<{ open: ObservationRow[]; closed: ObservationRow[] }> {
  const rows = await db.drafts
    .where('[userId+state]')
    .anyOf([
      [userId, 'draft'],
      [userId, 'closed'],
    ])
    .toArray();
  const withPhotos = await Promise.all(
    rows
      .filter((draft) => draft.state === 'closed' || draft.observationStatus === 'OPEN')
      .map(async (draft) => ({ ...draft, photoCount: await db.photos.where('draftId').equals(draft.id).count() })),
  );
  const dueOf = (row: ObservationRow) => Date.parse(row.observationDueAt ?? '') || 0;
  return {
    open: withPhotos.filter((row) => row.state === 'draft').sort((a, b) => dueOf(a) - dueOf(b)),
    closed: withPhotos
      .filter((row) => row.state === 'closed')
      .sort((a, b) => (b.observationClosedAt ?? '').localeCompare(a.observationClosedAt ?? '')),
  };
}

/**
 * 'Vehicle has gone': the observation closes with no notice. Its photos go (no charge, so no
 * reason to keep pictures of the vehicle); the record stays, and the outbox tells the server.
 */
export async function closeObservation(db: LocalDb, id: string, now = Date.now()): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, async () => {
    const draft = await db.drafts.get(id);
    if (!draft || draft.state !== 'draft') throw new Error('This observation can no longer be closed: its notice has been submitted');
    await db.drafts.update(id, {
      state: 'closed',
      observationStatus: 'GONE',
      observationClosedAt: new Date(now).toISOString(),
      updatedAt: now,
    });
    await db.photos.where('draftId').equals(id).delete();
  });
}

/** Observations whose status the server has not confirmed yet (a notice completes its own). */
export async function findObservationsToSync(db: LocalDb, userId: string): Promise<DraftRecord[]> {
  const rows = await db.drafts
    .where('[userId+state]')
    .anyOf([
      [userId, 'draft'],
      [userId, 'closed'],
    ])
    .toArray();
  return rows.filter(
    (draft) => draft.observationStatus && draft.observationStatus !== draft.observationSyncedStatus && !draft.observationSyncError,
  );
}

export async function recordObservationSync(
  db: LocalDb,
  id: string,
  outcome: { status: ObservationSyncStatus } | { error: string },
): Promise<void> {
  await db.drafts.update(
    id,
    'error' in outcome ? { observationSyncError: outcome.error } : { observationSyncedStatus: outcome.status, observationSyncError: null },
  );
}
