import { useState } from 'react';
import { ChevronLeft } from 'lucide-react';
import {
  allowedTransitions,
  ERROR_MESSAGES,
  OFFENCE_TYPE_LABELS,
  PCN_STATUS_LABELS,
  pcnTitle,
  SCREEN_TEXTS,
  type Pcn,
  type PcnStatus,
} from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button, LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { StatusChip } from '../../../lib/status-chip.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { changePcnStatus, getAdminPcn } from '../api/pcns.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { AuditTimeline } from './audit-timeline.tsx';
import { EvidencePackButton } from './evidence-pack-button.tsx';
import { ChecklistCoverage, EvidencePhotos } from './review-evidence.tsx';
import { ClockSkewBanner, KeeperDeadlineLine, ObservationFacts, PossibleDuplicates } from './review-timing.tsx';

const ACTION_LABELS: Record<PcnStatus, string> = {
  SUBMITTED: 'Back to Submitted',
  UNDER_REVIEW: 'Start review',
  APPROVED: 'Approve',
  REJECTED: 'Reject',
  ISSUED: 'Mark as issued',
  PAID: 'Mark as paid',
  CANCELLED: 'Cancel PCN',
};

/** A status from which nothing else is possible: asked for confirmation first. */
const isFinal = (status: PcnStatus) => allowedTransitions(status).length === 0;

export function PcnReview({ pcnId, backHref }: { pcnId: string; backHref: string }) {
  const loaded = useAsync(() => getAdminPcn(pcnId), [pcnId], ERROR_MESSAGES.fetchPcn);
  const [pcn, setPcn] = useState<Pcn | null>(null);
  const current = pcn ?? loaded.data ?? null;

  const back = (
    <div>
      <LinkButton href={backHref} variant="text">
        <ChevronLeft aria-hidden="true" size={20} />
        Back to all PCNs
      </LinkButton>
    </div>
  );

  if (!current && loaded.isLoading) return <Spinner />;
  if (!current) {
    return (
      <div className="page">
        {back}
        <PageHeading>{loaded.error?.status === 404 ? ERROR_MESSAGES.pcnNotFound : (loaded.error?.message ?? ERROR_MESSAGES.fetchPcn)}</PageHeading>
      </div>
    );
  }
  return (
    <div className="page">
      {back}
      <ReviewBody pcn={current} onChanged={setPcn} />
    </div>
  );
}

function ReviewBody({ pcn, onChanged }: { pcn: Pcn; onChanged: (pcn: Pcn) => void }) {
  const title = pcnTitle(pcn.pcnNumber);
  const [notes, setNotes] = useState('');
  const [pending, setPending] = useState<PcnStatus | null>(null);
  const [confirming, setConfirming] = useState<PcnStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // Days left are counted from when the review opened, not from each render.
  const [openedAt] = useState(() => new Date());
  const transitions = allowedTransitions(pcn.status);

  async function move(to: PcnStatus) {
    if (pending) return;
    setPending(to);
    setError(null);
    try {
      const updated = await changePcnStatus(pcn.id, to, notes);
      onChanged(updated);
      setNotes('');
      setConfirming(null);
      setAnnouncement(`${title} is now ${PCN_STATUS_LABELS[updated.status]}.`);
    } catch (e) {
      setError(toApiError(e, ERROR_MESSAGES.updatePcn).message);
      setConfirming(null);
    } finally {
      setPending(null);
    }
  }

  const history = [...(pcn.statusHistory ?? [])].reverse();
  return (
    <>
      <div className="page-header">
        <PageHeading>{title}</PageHeading>
        <StatusChip status={pcn.status} />
        <EvidencePackButton pcnId={pcn.id} pcnNumber={pcn.pcnNumber} />
      </div>
      <KeeperDeadlineLine pcn={pcn} now={openedAt} />
      <ClockSkewBanner pcn={pcn} />
      <div className="review-layout">
        <div className="page">
          <EvidencePhotos pcn={pcn} title={title} />
          <ChecklistCoverage pcn={pcn} />
          <AuditTimeline pcnId={pcn.id} version={`${pcn.status}|${pcn.updatedAt}`} />
        </div>
        <div className="page">
          <Card title="Decision" titleId="review-decision-title">
            <div className="form-stack">
              <p role="status" className="visually-hidden">{announcement}</p>
              {error ? <Alert>{error}</Alert> : null}
              {transitions.length === 0 ? (
                <p className="muted">{PCN_STATUS_LABELS[pcn.status]} is a final status: no further changes are possible.</p>
              ) : (
                <>
                  <TextField
                    label="Admin notes"
                    description="Saved with the change and shown to the officer on their PCN."
                    isMultiline
                    rows={3}
                    value={notes}
                    onChange={setNotes}
                    isDisabled={pending !== null}
                  />
                  <div className="status-actions">
                    {transitions.map((to) => (
                      <Button
                        key={to}
                        variant={to === 'REJECTED' || to === 'CANCELLED' ? 'secondary' : 'primary'}
                        isDisabled={pending !== null}
                        onPress={() => (isFinal(to) ? setConfirming(to) : void move(to))}
                      >
                        {pending === to ? 'Saving...' : ACTION_LABELS[to]}
                      </Button>
                    ))}
                  </div>
                </>
              )}
            </div>
          </Card>
          <PossibleDuplicates pcn={pcn} />
          <ObservationFacts pcn={pcn} />
          <Card title="Details" titleId="review-details-title">
            <dl className="details">
              <Detail label="Vehicle Registration" value={pcn.vehicleRegistration} />
              <Detail label="Car Park" value={pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark} />
              <Detail label="Offence Type" value={OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType} />
              <Detail label="Location" value={pcn.location} />
              <Detail label="Officer" value={pcn.createdBy ? `${pcn.createdBy.firstName} ${pcn.createdBy.lastName}` : '—'} />
              <Detail label="Submitted" value={formatDateTime(pcn.createdAt)} />
              <Detail label="Last Updated" value={formatDateTime(pcn.updatedAt)} />
              <Detail label="Description" value={pcn.description || '—'} isWide />
              {pcn.adminNotes ? <Detail label="Admin Notes" value={pcn.adminNotes} isWide /> : null}
            </dl>
          </Card>
          <Card title="Status history" titleId="review-history-title">
            {history.length === 0 ? (
              <p className="muted">No changes yet.</p>
            ) : (
              <ol className="history">
                {history.map((change) => (
                  <li key={change.id} className="history__item">
                    <strong>
                      {change.fromStatus ? `${PCN_STATUS_LABELS[change.fromStatus]} → ` : ''}
                      {PCN_STATUS_LABELS[change.toStatus]}
                    </strong>
                    <span className="muted">
                      {formatDateTime(change.createdAt)}
                      {change.changedBy ? ` by ${change.changedBy.firstName} ${change.changedBy.lastName}` : ''}
                    </span>
                    {change.note ? <span className="history__note">{change.note}</span> : null}
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </div>
      </div>
      {confirming ? (
        <ConfirmDialog
          title={`${ACTION_LABELS[confirming]}?`}
          keepLabel="Keep PCN"
          isOpen
          onOpenChange={(open) => !open && setConfirming(null)}
          confirmLabel={ACTION_LABELS[confirming]}
          busyLabel="Saving..."
          isBusy={pending !== null}
          onConfirm={() => void move(confirming)}
        >
          <p>
            {title} becomes <strong>{PCN_STATUS_LABELS[confirming]}</strong>, a final status: it cannot be changed afterwards.
          </p>
          {notes.trim() ? <p>Your note is saved with it.</p> : <p>You have not written an admin note.</p>}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function Detail({ label, value, isWide }: { label: string; value: string; isWide?: boolean }) {
  return (
    <div className={isWide ? 'details__wide' : undefined}>
      <dt>{label}</dt>
      <dd className={isWide ? 'details__text' : undefined}>{value}</dd>
    </div>
  );
}
