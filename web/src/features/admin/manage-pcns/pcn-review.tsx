import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import {
  allowedTransitions,
  cancellationReasonLabel,
  describeCollection,
  ERROR_MESSAGES,
  formatListTotal,
  isFinalStatus,
  OFFENCE_TYPE_LABELS,
  PCN_STATUS_LABELS,
  pcnTitle,
  SCREEN_TEXTS,
  type Pcn,
  type PcnStatus,
} from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button, LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { focusPageHeading, PageHeading } from '../../../lib/page-heading.tsx';
import { RadioField } from '../../../lib/radio-field.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { StatusChip } from '../../../lib/status-chip.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { changePcnStatus, getAdminPcn, getPcnNeighbours, type AdminPcnQuery, type CancellationChoice } from '../api/pcns.ts';
import { CancellationReasonFields, cancellationErrors, NO_CANCELLATION } from './cancellation-reason-fields.tsx';
import { CancellationRequestsCard } from './cancellation-requests-card.tsx';
import { ConfirmDialog } from '../../../lib/confirm-dialog.tsx';
import { AuditTimeline } from './audit-timeline.tsx';
import { EvidencePackButton } from './evidence-pack-button.tsx';
import { rememberReviewed } from './list-view-memory.ts';
import { ChecklistCoverage, EvidencePhotos } from './review-evidence.tsx';
import { REVIEW_PARAM } from './review-href.ts';
import { KeeperDetails } from './keeper-details.tsx';
import { DriverAndHirerCard } from './driver-and-hirer-card.tsx';
import { PaymentsCard } from './payments-card.tsx';
import { AppealLine, AppealSummary } from './appeal-summary.tsx';
import { ClockSkewBanner, KeeperDeadlineLine, NoticeTermsFacts, ObservationFacts, PossibleDuplicates } from './review-timing.tsx';
import { ServiceCorrection } from './service-correction.tsx';
import { SentDocumentsCard } from './sent-documents-card.tsx';
import { ACTION_LABELS, ACTION_SHORTCUTS, transitionForKey } from './status-actions.ts';

type Props = {
  pcnId: string;
  /** The list's filters and sort: Previous and Save & next step through exactly that list. */
  query: AdminPcnQuery;
  /** The list's URL parameters, for the links back to it and on to the neighbours. */
  listParams: URLSearchParams;
};

function listHref(listParams: URLSearchParams, reviewId: string | null): string {
  const params = new URLSearchParams(listParams);
  if (reviewId) params.set(REVIEW_PARAM, reviewId);
  else params.delete(REVIEW_PARAM);
  const query = params.toString();
  return `${paths.admin.pcns}${query ? `?${query}` : ''}`;
}

/** Keys typed into a field are the field's, not shortcuts. */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) &&
    !(target instanceof HTMLInputElement && target.type === 'radio')
  );
}

export function PcnReview({ pcnId, query, listParams }: Props) {
  const loaded = useAsync(() => getAdminPcn(pcnId), [pcnId], ERROR_MESSAGES.fetchPcn);
  const neighbours = useAsync(() => getPcnNeighbours(pcnId, query), [pcnId, JSON.stringify(query)], ERROR_MESSAGES.fetchPcns);
  const [pcn, setPcn] = useState<Pcn | null>(null);
  const current = pcn ?? loaded.data ?? null;
  const navigate = useNavigate();
  useEffect(() => rememberReviewed(pcnId), [pcnId]);

  const hrefOf = (id: string | null) => (id ? listHref(listParams, id) : null);
  const previousHref = hrefOf(neighbours.data?.previousId ?? null);
  const nextHref = hrefOf(neighbours.data?.nextId ?? null);
  const backHref = listHref(listParams, null);

  // J / K step through the list, as in a mail reader.
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        isTyping(event.target) ||
        document.querySelector('dialog[open], [role="alertdialog"]')
      )
        return;
      const key = event.key.toUpperCase();
      const href = key === 'J' ? nextHref : key === 'K' ? previousHref : null;
      if (href) {
        event.preventDefault();
        void navigate(href);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, nextHref, previousHref]);

  const nav = (
    <nav className="review-nav" aria-label="Review navigation">
      <LinkButton href={backHref} variant="text">
        <ChevronLeft aria-hidden="true" size={20} />
        Back to all PCNs
      </LinkButton>
      <div className="review-nav__steps">
        {previousHref ? (
          <LinkButton href={previousHref} variant="secondary" aria-label="Previous PCN">
            <ChevronLeft aria-hidden="true" size={18} />
            Previous
          </LinkButton>
        ) : null}
        <p className="review-nav__position" aria-live="polite">
          {neighbours.data
            ? neighbours.data.position === null
              ? 'No longer in this list'
              : `${neighbours.data.position.toLocaleString('en-GB')} of ${formatListTotal(neighbours.data)}`
            : null}
        </p>
        {nextHref ? (
          <LinkButton href={nextHref} variant="secondary" aria-label="Next PCN">
            {SCREEN_TEXTS.next}
            <ChevronRight aria-hidden="true" size={18} />
          </LinkButton>
        ) : null}
      </div>
    </nav>
  );

  if (!current && loaded.isLoading) return <Spinner />;
  if (!current) {
    return (
      <div className="page">
        {nav}
        <PageHeading>
          {loaded.error?.status === 404 ? ERROR_MESSAGES.pcnNotFound : (loaded.error?.message ?? ERROR_MESSAGES.fetchPcn)}
        </PageHeading>
      </div>
    );
  }
  return (
    <div className="page">
      {nav}
      <ReviewBody
        pcn={current}
        onChanged={(updated) => {
          setPcn(updated);
          // Its place in a filtered list may have changed with its status.
          neighbours.reload();
        }}
        nextHref={neighbours.data ? nextHref : null}
        isLastInList={neighbours.data !== undefined && nextHref === null}
        onSavedAndNext={(href) => navigate(href)}
        backHref={backHref}
      />
    </div>
  );
}

type BodyProps = {
  pcn: Pcn;
  onChanged: (pcn: Pcn) => void;
  nextHref: string | null;
  isLastInList: boolean;
  onSavedAndNext: (href: string) => void;
  backHref: string;
};

function ReviewBody({ pcn, onChanged, nextHref, isLastInList, onSavedAndNext, backHref }: BodyProps) {
  const title = pcnTitle(pcn.pcnNumber);
  const [notes, setNotes] = useState('');
  const [chosen, setChosen] = useState<PcnStatus | null>(null);
  const [cancellation, setCancellation] = useState<CancellationChoice>(NO_CANCELLATION);
  const [cancellationProblems, setCancellationProblems] = useState<{ reason?: string; note?: string }>({});
  const [isSaving, setSaving] = useState(false);
  /** The confirmation of a final status, and where to go once it is saved. */
  const [confirming, setConfirming] = useState<{ to: PcnStatus; then: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // Days left are counted from when the review opened, not from each render.
  const [openedAt] = useState(() => new Date());
  const transitions = allowedTransitions(pcn.status);
  const to = chosen && transitions.includes(chosen) ? chosen : null;
  // After the last PCN of the list, 'Save & next' goes back to the list.
  const afterSave = nextHref ?? (isLastInList ? backHref : null);
  const saveRef = useRef<(then: string | null) => void>(() => undefined);
  // Save & next and Previous stay on one route: say where the admin arrived, as a route change does.
  useEffect(() => void focusPageHeading(), [pcn.id]);

  async function move(status: PcnStatus, then: string | null) {
    if (isSaving) return;
    setSaving(true);
    setError(null);
    try {
      const updated = await changePcnStatus(pcn.id, status, notes, cancellation);
      setConfirming(null);
      if (then) {
        onSavedAndNext(then);
        return;
      }
      onChanged(updated);
      setNotes('');
      setChosen(null);
      setCancellation(NO_CANCELLATION);
      setAnnouncement(`${title} is now ${PCN_STATUS_LABELS[updated.status]}.`);
    } catch (e) {
      setError(toApiError(e, ERROR_MESSAGES.updatePcn).message);
      setConfirming(null);
    } finally {
      setSaving(false);
    }
  }

  /** Save (then: null) or Save & next (then: the next review's address); a final status asks first. */
  function save(then: string | null) {
    if (!to) {
      setError('Choose the new status first.');
      return;
    }
    if (to === 'CANCELLED') {
      const problems = cancellationErrors(cancellation);
      setCancellationProblems(problems);
      if (problems.reason || problems.note) return;
    }
    if (isFinalStatus(to)) setConfirming({ to, then });
    else void move(to, then);
  }
  saveRef.current = save;

  // A decision's letter chooses it; Ctrl+Enter (⌘+Enter) saves and moves on.
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (document.querySelector('dialog[open], [role="alertdialog"]')) return;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        saveRef.current(afterSave);
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const picked = transitionForKey(event.key, transitions);
      if (picked) {
        event.preventDefault();
        setChosen(picked);
        setError(null);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [transitions, afterSave]);

  const history = [...(pcn.statusHistory ?? [])].reverse();
  return (
    <>
      <div className="page-header">
        <PageHeading>{title}</PageHeading>
        <StatusChip status={pcn.status} />
        <EvidencePackButton pcnId={pcn.id} pcnNumber={pcn.pcnNumber} />
      </div>
      <KeeperDeadlineLine pcn={pcn} now={openedAt} />
      <AppealLine pcn={pcn} />
      <ClockSkewBanner pcn={pcn} />
      <div className="review-layout">
        <div className="page review-layout__main">
          <EvidencePhotos pcn={pcn} title={title} />
          <ChecklistCoverage pcn={pcn} />
          <AuditTimeline pcnId={pcn.id} version={`${pcn.status}|${pcn.updatedAt}`} />
        </div>
        <div className="page review-layout__aside">
          <Card title="Decision" titleId="review-decision-title" className="review-decision">
            <div className="form-stack">
              <p role="status" className="visually-hidden">
                {announcement}
              </p>
              {error ? <Alert>{error}</Alert> : null}
              {transitions.length === 0 ? (
                <p className="muted">{PCN_STATUS_LABELS[pcn.status]} is a final status: no further changes are possible.</p>
              ) : (
                <>
                  <RadioField
                    label="New status"
                    options={transitions.map((status) => ({ id: status, label: `${ACTION_LABELS[status]} (${ACTION_SHORTCUTS[status]})` }))}
                    value={to}
                    onChange={(value) => {
                      setChosen(value as PcnStatus);
                      setError(null);
                    }}
                  />
                  <TextField
                    label="Admin notes"
                    description="Saved with the change and shown to the officer on their PCN."
                    isMultiline
                    rows={3}
                    value={notes}
                    onChange={setNotes}
                    isDisabled={isSaving}
                  />
                  {to === 'CANCELLED' ? (
                    <CancellationReasonFields
                      value={cancellation}
                      onChange={(value) => {
                        setCancellation(value);
                        setCancellationProblems({});
                      }}
                      errors={cancellationProblems}
                      isDisabled={isSaving}
                    />
                  ) : null}
                  <div className="status-actions">
                    <Button
                      isDisabled={isSaving || afterSave === null}
                      onPress={() => save(afterSave)}
                      aria-keyshortcuts="Control+Enter Meta+Enter"
                    >
                      {isSaving ? 'Saving...' : nextHref || !isLastInList ? 'Save & next' : 'Save & back to list'}
                    </Button>
                    <Button variant="secondary" isDisabled={isSaving} onPress={() => save(null)}>
                      Save
                    </Button>
                  </div>
                  <p className="muted review-shortcuts">
                    Keys: {transitions.map((status) => `${ACTION_SHORTCUTS[status]} ${ACTION_LABELS[status]}`).join(' · ')} · Ctrl+Enter
                    Save &amp; next · J next · K previous
                  </p>
                </>
              )}
            </div>
          </Card>
          <CancellationRequestsCard pcn={pcn} onChanged={onChanged} />
          <PossibleDuplicates pcn={pcn} />
          <ObservationFacts pcn={pcn} />
          <NoticeTermsFacts pcn={pcn} />
          <KeeperDetails pcn={pcn} onChanged={onChanged} />
          <DriverAndHirerCard pcn={pcn} onChanged={onChanged} />
          <AppealSummary pcn={pcn} />
          <PaymentsCard pcn={pcn} onChanged={onChanged} />
          <SentDocumentsCard pcn={pcn} />
          <div className="button-row">
            <ServiceCorrection key={pcn.updatedAt} pcn={pcn} onCorrected={onChanged} />
          </div>
          <Card title="Details" titleId="review-details-title">
            <dl className="details">
              <Detail label="Vehicle Registration" value={pcn.vehicleRegistration} />
              <Detail label="Car Park" value={pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark} />
              <Detail label="Offence Type" value={OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType} />
              <Detail label="Location" value={pcn.location} />
              <Detail label="Officer" value={pcn.createdBy ? `${pcn.createdBy.firstName} ${pcn.createdBy.lastName}` : '—'} />
              <Detail label="Submitted" value={formatDateTime(pcn.createdAt)} />
              <Detail label="Last Updated" value={formatDateTime(pcn.updatedAt)} />
              {pcn.collection ? <Detail label="Collection Stage" value={describeCollection(pcn.collection)} isWide /> : null}
              <Detail label="Description" value={pcn.description || '—'} isWide />
              {pcn.adminNotes ? <Detail label="Admin Notes" value={pcn.adminNotes} isWide /> : null}
              {pcn.status === 'CANCELLED' ? (
                <Detail
                  label="Cancellation Reason"
                  value={`${cancellationReasonLabel(pcn.cancellationReason ?? null)}${pcn.cancellationNote ? `: ${pcn.cancellationNote}` : ''}`}
                  isWide
                />
              ) : null}
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
          title={`${ACTION_LABELS[confirming.to]}?`}
          cancelLabel="Keep PCN"
          isOpen
          onClose={() => setConfirming(null)}
          confirmLabel={ACTION_LABELS[confirming.to]}
          busyLabel="Saving..."
          isBusy={isSaving}
          onConfirm={() => void move(confirming.to, confirming.then)}
          message={
            <>
              <p>
                {title} becomes <strong>{PCN_STATUS_LABELS[confirming.to]}</strong>, a final status: it cannot be changed afterwards.
              </p>
              {notes.trim() ? <p>Your note is saved with it.</p> : <p>You have not written an admin note.</p>}
            </>
          }
        />
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
