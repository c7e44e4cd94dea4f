import { Link } from 'react-router-dom';
import { CircleAlert, CloudUpload, Eye, RotateCw } from 'lucide-react';
import { OFFENCE_TYPE_LABELS, SCREEN_TEXTS, type OffenceType } from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { Button } from '../../lib/button.tsx';
import { ConfirmButton } from '../../lib/confirm-button.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { getLocalDb } from '../../lib/local-db/database.ts';
import { discardDraftAndNotes, pageDraftJournal } from '../../lib/local-db/draft-journal.ts';
import type { OutboxRow } from '../../lib/local-db/outbox-queue.ts';
import { useFilingCarParks } from '../../lib/filing-data.ts';
import { retryOutboxDraft } from './outbox-runtime.ts';
import { describeDraftState, OUTBOX_TEXTS } from './outbox-texts.ts';
import { StorageWarning, useStoragePersisted } from './storage-warning.tsx';
import { useHasSignal, useOutboxRows } from './use-outbox.ts';
import './outbox.css';

function titleOf(draft: OutboxRow): string {
  return draft.vehicleRegistration.trim().toUpperCase().replace(/\s+/g, '');
}

/** Car park, offence, when it was submitted and its photos: enough to know which notice it is. */
function detailsOf(draft: OutboxRow, carParkNames: ReadonlyMap<string, string>): string {
  const offence = OFFENCE_TYPE_LABELS[draft.offenceType as OffenceType] ?? draft.offenceType;
  const submitted = formatDateTime(new Date(draft.queuedAt ?? draft.createdAt).toISOString());
  return [
    carParkNames.get(draft.carParkId) ?? SCREEN_TEXTS.unknownCarPark,
    offence,
    submitted,
    OUTBOX_TEXTS.photoCount(draft.photoCount),
  ].join(' · ');
}

/**
 * Notices on this phone that the server has not confirmed yet, in the order they were filed
 * (the order they are sent in), with where each one is ('Waiting for signal', 'Sending',
 * 'Failed: …', 'Sign in to send'), and what the officer can do about it. A sent notice leaves
 * the outbox: the list below shows it.
 */
export function OutboxList({ userId }: { userId: string | null }) {
  const { value: drafts } = useOutboxRows(userId);
  // The names, from the copy kept on the phone (lib/filing-data.ts).
  const { carParks } = useFilingCarParks(userId, { refresh: false });
  const carParkNames = new Map((carParks ?? []).map((carPark) => [carPark.id, carPark.name]));
  const storage = useStoragePersisted();
  const hasSignal = useHasSignal();
  if (drafts.length === 0) return null;
  const unsentCount = drafts.filter((draft) => draft.state !== 'sent').length;
  return (
    <section className="pending-section" aria-labelledby="outbox-title">
      <h2 className="pending-section__title" id="outbox-title">
        {OUTBOX_TEXTS.listTitle}
      </h2>
      {/* How many wait, and, with no signal, that nothing is asked of the officer: they go by themselves. */}
      <p className="pending-section__summary">{OUTBOX_TEXTS.waitingToSend(unsentCount)}</p>
      {hasSignal ? null : <p className="muted">{OUTBOX_TEXTS.sendsWhenSignalReturns(unsentCount)}</p>}
      <StorageWarning unsentCount={unsentCount} persisted={storage.persisted} refused={storage.refused} onAsk={() => void storage.ask()} />
      <ul className="pending-list" aria-labelledby="outbox-title">
        {drafts.map((draft) => (
          <OutboxItem key={draft.id} draft={draft} details={detailsOf(draft, carParkNames)} hasSignal={hasSignal} />
        ))}
      </ul>
    </section>
  );
}

function OutboxItem({ draft, details, hasSignal }: { draft: OutboxRow; details: string; hasSignal: boolean }) {
  const title = titleOf(draft);
  const Icon = draft.state === 'failed' ? CircleAlert : CloudUpload;
  // Without signal a retry can only fail again: the outbox sends by itself when signal returns.
  const canRetry = hasSignal && (draft.state === 'queued' || draft.state === 'failed' || draft.state === 'needs-sign-in');
  const canDiscard = draft.state !== 'sending';
  return (
    <li className={`pending-item pending-item--${draft.state}`} data-draft-id={draft.id}>
      <span className="pending-item__text">
        <span className="pending-item__title">{title}</span>
        <span className="pending-item__details">{details}</span>
        <span className="pending-item__state" role="status">
          <Icon aria-hidden="true" size={16} /> {describeDraftState(draft)}
          {draft.state === 'queued' && draft.lastError ? <span className="muted">{` (${draft.lastError})`}</span> : null}
          {/* Refused for a permit the phone did not know of (409 PERMIT_HOLDER): what the officer can do. */}
          {draft.state === 'failed' && draft.lastErrorFields?.permitOverrideReason ? (
            <span className="muted">{` ${OUTBOX_TEXTS.permitHolderNext}`}</span>
          ) : null}
        </span>
      </span>
      <span className="pending-item__actions">
        {/* The notice as filed, with its photos from the phone, and its notice to driver to print again. */}
        <Link to={paths.outboxNotice(draft.id)} className="button button--secondary" aria-label={`${OUTBOX_TEXTS.view}: ${title}`}>
          <Eye aria-hidden="true" size={16} />
          {OUTBOX_TEXTS.view}
        </Link>
        {draft.state === 'failed' ? (
          <Link to={paths.continueDraft(draft.id)} className="button button--secondary" aria-label={`${OUTBOX_TEXTS.edit}: ${title}`}>
            {OUTBOX_TEXTS.edit}
          </Link>
        ) : null}
        {canRetry ? (
          <Button variant="secondary" aria-label={`${OUTBOX_TEXTS.retryNow}: ${title}`} onPress={() => void retryOutboxDraft(draft.id)}>
            <RotateCw aria-hidden="true" size={16} />
            {OUTBOX_TEXTS.retryNow}
          </Button>
        ) : null}
        {canDiscard ? (
          <ConfirmButton
            aria-label={`${OUTBOX_TEXTS.discard}: ${title}`}
            title={OUTBOX_TEXTS.discardTitle}
            message={OUTBOX_TEXTS.discardMessage}
            confirmLabel={OUTBOX_TEXTS.discardConfirm}
            onConfirm={() => discardDraftAndNotes(getLocalDb(), pageDraftJournal(), draft.id)}
          >
            {OUTBOX_TEXTS.discard}
          </ConfirmButton>
        ) : null}
      </span>
    </li>
  );
}
