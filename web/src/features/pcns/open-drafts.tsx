import { Link } from 'react-router-dom';
import { FilePen } from 'lucide-react';
import { pcnTitle } from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { ConfirmButton } from '../../lib/confirm-button.tsx';
import { useCurrentUser } from '../../lib/current-user.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { getLocalDb } from '../../lib/local-db/database.ts';
import { discardDraftAndNotes, pageDraftJournal } from '../../lib/local-db/draft-journal.ts';
import { findOpenDrafts } from '../../lib/local-db/drafts.ts';
import type { DraftRecord } from '../../lib/local-db/records.ts';
import { useLiveQuery } from '../../lib/use-live-query.ts';

type OpenDraft = DraftRecord & { photoCount: number };

/** The officer's unfinished forms, newest first, with their photo counts; live across tabs. */
function useOpenDrafts(userId: string | null): OpenDraft[] {
  return useLiveQuery(
    async () => {
      if (!userId) return [];
      const db = getLocalDb();
      const drafts = await findOpenDrafts(db, userId);
      return Promise.all(
        drafts.map(async (draft) => ({ ...draft, photoCount: await db.photos.where('draftId').equals(draft.id).count() })),
      );
    },
    [userId],
    [] as OpenDraft[],
  ).value;
}

/** Where a draft is continued: the new-notice form with its id, or the edit form of its PCN. */
function continueHref(draft: DraftRecord): string {
  return draft.pcnId ? paths.editPcn(draft.pcnId) : paths.continueDraft(draft.id);
}

function describeDraft(draft: OpenDraft): string {
  const what = draft.pcnId
    ? `Changes to ${pcnTitle(draft.pcnNumber ?? '')}`
    : draft.vehicleRegistration.trim() || 'New notice, no registration yet';
  const photos = `${draft.photoCount} ${draft.photoCount === 1 ? 'photo' : 'photos'}`;
  return `${what} · ${photos}`;
}

/**
 * Unfinished notices kept on this phone (a reload, a call, a dead battery): each can be continued
 * where it was left, or thrown away after a confirmation.
 */
export function OpenDrafts() {
  const userId = useCurrentUser()?.id ?? null;
  const drafts = useOpenDrafts(userId);
  if (drafts.length === 0) return null;
  return (
    <section className="pending-section" aria-labelledby="open-drafts-title">
      <h2 className="pending-section__title" id="open-drafts-title">
        Unfinished drafts
      </h2>
      <ul className="pending-list">
        {drafts.map((draft) => {
          const label = describeDraft(draft);
          return (
            <li key={draft.id} className="pending-item">
              <span className="pending-item__text">
                <span className="pending-item__title">{label}</span>
                <span className="pending-item__state muted">{`Saved on this phone ${formatDateTime(new Date(draft.updatedAt).toISOString())}`}</span>
              </span>
              <span className="pending-item__actions">
                <Link to={continueHref(draft)} className="button button--secondary" aria-label={`Continue: ${label}`}>
                  <FilePen aria-hidden="true" size={18} />
                  Continue
                </Link>
                <ConfirmButton
                  aria-label={`Discard draft: ${label}`}
                  title="Discard this draft?"
                  message="Its details and photos are deleted from this phone. This cannot be undone."
                  confirmLabel="Discard draft"
                  onConfirm={() => discardDraftAndNotes(getLocalDb(), pageDraftJournal(), draft.id)}
                >
                  Discard
                </ConfirmButton>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
