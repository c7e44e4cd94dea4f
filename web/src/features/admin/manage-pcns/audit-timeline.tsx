import { useState } from 'react';
import { ChevronDown, ChevronUp } from 'lucide-react';
import {
  auditFieldLabel,
  describeClockOffset,
  OFFENCE_TYPE_LABELS,
  PCN_AUDIT_ACTION_LABELS,
  PCN_STATUS_LABELS,
  pcnTitle,
  type OffenceType,
  type PcnAuditAction,
  type PcnAuditEntry,
  type PcnStatus,
  NOTICE_SERVED_BY_LABELS,
  type NoticeServedBy,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { Spinner } from '../../../lib/spinner.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getAllCarParks } from '../api/car-parks.ts';
import { getPcnAudit, PCN_AUDIT_FETCH_FAILED } from '../api/pcns.ts';

type ValueContext = { carParkName: (id: string) => string };

const NONE = '(none)';

/**
 * Every recorded change to the PCN, oldest first, read-only. `version` changes
 * whenever the PCN does (a status change here), so the trail is read again.
 */
export function AuditTimeline({ pcnId, version }: { pcnId: string; version: string }) {
  const audit = useAsync(() => getPcnAudit(pcnId), [pcnId, version], PCN_AUDIT_FETCH_FAILED);
  // Names for car park ids in the trail; the ids still show if this list cannot be read.
  const carParks = useAsync(getAllCarParks, [], PCN_AUDIT_FETCH_FAILED);
  const names = new Map((carParks.data ?? []).map((carPark) => [carPark.id, carPark.name]));
  const context: ValueContext = { carParkName: (id) => names.get(id) ?? id };
  const entries = audit.data?.entries ?? [];

  return (
    <Card title="Audit trail" titleId="review-audit-title">
      <p className="muted card__intro">Every change to this PCN, oldest first. The trail cannot be edited or deleted.</p>
      {audit.error ? <Alert>{audit.error.message}</Alert> : null}
      {!audit.data && audit.isLoading ? (
        <Spinner />
      ) : audit.data && entries.length === 0 ? (
        <p className="muted">Nothing has been recorded yet.</p>
      ) : (
        <ol className="audit-timeline" aria-busy={audit.isLoading}>
          {entries.map((entry) => (
            <AuditItem key={entry.id} entry={entry} context={context} />
          ))}
        </ol>
      )}
    </Card>
  );
}

/** Creation and deletion record the whole notice; those snapshots open on request so the timeline stays scannable. */
const SNAPSHOT_ACTIONS: ReadonlySet<PcnAuditAction> = new Set(['created', 'deleted']);

function AuditItem({ entry, context }: { entry: PcnAuditEntry; context: ValueContext }) {
  const changes = Object.entries(entry.changes);
  const isSnapshot = SNAPSHOT_ACTIONS.has(entry.action);
  const [isOpen, setOpen] = useState(!isSnapshot);
  const listId = `audit-changes-${entry.id}`;
  return (
    <li className="audit-timeline__item">
      <p className="audit-timeline__head">
        <strong>{PCN_AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</strong>{' '}
        <span className="muted">
          <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> by {entry.actorName}
          {entry.clockOffsetMs !== null ? ` · device clock ${describeClockOffset(entry.clockOffsetMs)}` : ''}
        </span>
      </p>
      {isSnapshot && changes.length > 0 ? (
        <Button
          variant="text"
          className="audit-timeline__toggle"
          aria-expanded={isOpen}
          aria-controls={isOpen ? listId : undefined}
          onPress={() => setOpen(!isOpen)}
        >
          {isOpen ? <ChevronUp aria-hidden="true" size={18} /> : <ChevronDown aria-hidden="true" size={18} />}
          {isOpen ? 'Hide' : 'Show'} the {changes.length} recorded {changes.length === 1 ? 'field' : 'fields'}
        </Button>
      ) : null}
      {changes.length > 0 && isOpen ? (
        <dl className="audit-changes" id={listId}>
          {changes.map(([field, change]) => (
            <div key={field}>
              <dt>{auditFieldLabel(field)}</dt>
              <dd>
                <ChangeText field={field} from={change.from} to={change.to} context={context} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

/** A new value alone when there was none before; otherwise old → new (spoken "changed to"). */
function ChangeText({ field, from, to, context }: { field: string; from: unknown; to: unknown; context: ValueContext }) {
  if (isEmpty(from)) return <>{formatAuditValue(field, to, context)}</>;
  return (
    <>
      <span className="audit-changes__from">{formatAuditValue(field, from, context)}</span>
      <span aria-hidden="true"> → </span>
      <span className="visually-hidden"> changed to </span>
      {formatAuditValue(field, to, context)}
    </>
  );
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

const TIME_FIELDS = new Set(['observedAt', 'issuedAt', 'takenAt', 'noticeServedAt']);

/** Stored values as people read them: labels for codes, local times, yes/no, photo summaries. */
function formatAuditValue(field: string, value: unknown, context: ValueContext): string {
  if (isEmpty(value)) return NONE;
  if (field === 'status') return PCN_STATUS_LABELS[value as PcnStatus] ?? String(value);
  if (field === 'offenceType') return OFFENCE_TYPE_LABELS[value as OffenceType] ?? String(value);
  if (field === 'noticeServedBy') return NOTICE_SERVED_BY_LABELS[value as NoticeServedBy] ?? String(value);
  if (field === 'carParkId' && typeof value === 'string') return context.carParkName(value);
  if (field === 'clockOffsetMs' && typeof value === 'number') return describeClockOffset(value);
  if (field === 'pcnNumber' && typeof value === 'string') return pcnTitle(value);
  if (TIME_FIELDS.has(field) && typeof value === 'string') return formatDateTime(value) || value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field === 'images' && Array.isArray(value)) return value.length === 1 ? '1 photo' : `${value.length} photos`;
  if (field === 'image' && typeof value === 'object') return describePhoto(value as PhotoSummary);
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

type PhotoSummary = { fileName?: string; sha256?: string; takenAt?: string | null };

function describePhoto(photo: PhotoSummary): string {
  const parts = [
    photo.takenAt ? `taken ${formatDateTime(photo.takenAt)}` : null,
    photo.sha256 ? `SHA-256 ${photo.sha256.slice(0, 12)}…` : null,
  ];
  return `Photo${parts.some(Boolean) ? ` (${parts.filter(Boolean).join(', ')})` : ''}`;
}
