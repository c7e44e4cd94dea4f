import { Link } from 'react-router-dom';
import { CircleAlert, CircleCheck, CloudUpload, RotateCw } from 'lucide-react';
import { pcnTitle } from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { Button } from '../../lib/button.tsx';
import { ConfirmButton } from '../../lib/confirm-button.tsx';
import { discardDraft, getLocalDb, type DraftRecord } from '../../lib/local-db.ts';
import { retryOutboxDraft } from './outbox-runtime.ts';
import { describeDraftState, OUTBOX_TEXTS } from './outbox-texts.ts';
import { useOutboxRows } from './use-outbox.ts';
import './outbox.css';

const STATE_ICONS = { failed: CircleAlert, sent: CircleCheck } as const;

function titleOf(draft: DraftRecord): string {
  const registration = draft.vehicleRegistration.trim().toUpperCase().replace(/\s+/g, '');
  return draft.serverPcnNumber ? `${pcnTitle(draft.serverPcnNumber)} · ${registration}` : registration;
}

/**
 * Notices on this phone that the server has not confirmed yet, with where each one is ('Waiting
 * for signal', 'Sending', 'Failed: …', 'Sign in to send'), and what the officer can do about it.
 * Rows the server confirmed while the screen is open stay, with their PCN number.
 */
export function OutboxList({ userId }: { userId: string | null }) {
  const { value: drafts } = useOutboxRows(userId);
  if (drafts.length === 0) return null;
  return (
    <section className="pending-section" aria-labelledby="outbox-title">
      <h2 className="pending-section__title" id="outbox-title">{OUTBOX_TEXTS.listTitle}</h2>
      <ul className="pending-list" aria-labelledby="outbox-title">
        {drafts.map((draft) => (
          <OutboxRow key={draft.id} draft={draft} />
        ))}
      </ul>
    </section>
  );
}

function OutboxRow({ draft }: { draft: DraftRecord }) {
  const title = titleOf(draft);
  const Icon = draft.state === 'failed' || draft.state === 'sent' ? STATE_ICONS[draft.state] : CloudUpload;
  const canRetry = draft.state === 'queued' || draft.state === 'failed' || draft.state === 'needs-sign-in';
  const canDiscard = draft.state !== 'sending' && draft.state !== 'sent';
  return (
    <li className={`pending-item pending-item--${draft.state}`} data-draft-id={draft.id}>
      <span className="pending-item__text">
        <span className="pending-item__title">{title}</span>
        <span className="pending-item__state" role="status">
          <Icon aria-hidden="true" size={16} /> {describeDraftState(draft)}
          {draft.state === 'queued' && draft.lastError ? <span className="muted">{` (${draft.lastError})`}</span> : null}
        </span>
      </span>
      <span className="pending-item__actions">
        {draft.state === 'sent' && draft.serverPcnId ? (
          <Link to={paths.pcn(draft.serverPcnId)} className="button button--secondary">
            {OUTBOX_TEXTS.view}
          </Link>
        ) : null}
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
            onConfirm={() => discardDraft(getLocalDb(), draft.id)}
          >
            {OUTBOX_TEXTS.discard}
          </ConfirmButton>
        ) : null}
      </span>
    </li>
  );
}
