import { Copy, TriangleAlert } from 'lucide-react';
import { Link } from 'react-aria-components';
import {
  APPEALS_SERVICE_NAMES,
  describeCharge,
  JURISDICTION_LABELS,
  describeKeeperNotice,
  describePostingWindow,
  describeNoticeToDriver,
  clockSkewWarningText,
  describeClockOffset,
  formatDuration,
  isKeeperNoticeOpen,
  pcnTitle,
  PCN_STATUS_LABELS,
  type Pcn,
} from '@parkpatrol/shared';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { KeeperDeadlineLeft } from '../components/keeper-deadline.tsx';
import { reviewHref } from './review-href.ts';

/** The posting window of the notice to keeper, with the time left to its last day while it can still go out. */
export function KeeperDeadlineLine({ pcn, now }: { pcn: Pcn; now: Date }) {
  const isOpen = isKeeperNoticeOpen(pcn.status);
  return (
    <p className={`deadline-line${pcn.deadlineWarning ? ' deadline-line--warning' : ''}`}>
      <span>
        Notice to keeper: <strong>{describePostingWindow(pcn.keeperNotice)}</strong>
      </span>
      {!pcn.keeperNoticeDueAt ? null : isOpen ? (
        <KeeperDeadlineLeft dueAt={pcn.keeperNoticeDueAt} isWarning={pcn.deadlineWarning ?? false} now={now} />
      ) : (
        <span className="muted">No longer pending: the PCN is {PCN_STATUS_LABELS[pcn.status].toLowerCase()}.</span>
      )}
    </p>
  );
}

/** Shown when the officer's phone clock was more than two minutes off when the notice was sent. */
export function ClockSkewBanner({ pcn }: { pcn: Pcn }) {
  if (!pcn.clockSkewWarning || pcn.clockOffsetMs === null || pcn.clockOffsetMs === undefined) return null;
  return (
    <div className="alert alert--warning" role="note" aria-label="Device clock warning">
      <TriangleAlert aria-hidden="true" size={20} className="alert__icon" />
      <div className="alert__body">
        <p>{clockSkewWarningText(pcn.clockOffsetMs)}</p>
        <p>The first sighting, issue and photo times are the device&apos;s readings: allow for the difference.</p>
      </div>
    </div>
  );
}

/** First sighting to issue, and whether the consideration and grace periods had to pass in between. */
export function ObservationFacts({ pcn }: { pcn: Pcn }) {
  const elapsedMs = pcn.observedAt && pcn.issuedAt ? Date.parse(pcn.issuedAt) - Date.parse(pcn.observedAt) : null;
  return (
    <Card title="Observation" titleId="review-observation-title">
      <dl className="details">
        <div>
          <dt>First seen</dt>
          <dd>{pcn.observedAt ? formatDateTime(pcn.observedAt) : 'Not recorded'}</dd>
        </div>
        <div>
          <dt>Issued</dt>
          <dd>{pcn.issuedAt ? formatDateTime(pcn.issuedAt) : 'Not recorded'}</dd>
        </div>
        <div>
          <dt>Notice to driver</dt>
          <dd>{describeNoticeToDriver(pcn.noticeToDriver, formatDateTime)}</dd>
        </div>
        <div>
          <dt>Notice to keeper</dt>
          <dd>{describeKeeperNotice(pcn.keeperNotice)}</dd>
        </div>
        <div>
          <dt>Time between</dt>
          <dd>{elapsedMs === null ? '—' : `${formatDuration(elapsedMs)} after the first sighting`}</dd>
        </div>
        <div>
          <dt>Stay</dt>
          <dd>{pcn.stayApplies ? 'A stay applied: consideration and grace had to pass before issuing' : 'No stay applied'}</dd>
        </div>
        <div className="details__wide">
          <dt>Device clock when sent</dt>
          <dd>
            {pcn.clockOffsetMs === null || pcn.clockOffsetMs === undefined
              ? 'Not reported by the device'
              : describeClockOffset(pcn.clockOffsetMs)}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/** The terms the notice was issued under (decision 0017): what its notices print. */
export function NoticeTermsFacts({ pcn }: { pcn: Pcn }) {
  const terms = pcn.terms;
  if (!terms) return null;
  return (
    <Card title="Terms when issued" titleId="review-terms-title">
      <dl className="details">
        <div>
          <dt>Charge</dt>
          <dd>{terms.carPark ? describeCharge(terms.carPark) : 'Not recorded: the car park had no terms set'}</dd>
        </div>
        <div>
          <dt>Creditor</dt>
          <dd>{terms.operator?.creditorName ?? 'Not recorded: the operator settings were not set'}</dd>
        </div>
        <div>
          <dt>Appeals service</dt>
          <dd>{terms.operator ? APPEALS_SERVICE_NAMES[terms.operator.appealsService] : '—'}</dd>
        </div>
        <div>
          <dt>Land</dt>
          <dd>{terms.carPark ? JURISDICTION_LABELS[terms.carPark.jurisdiction] : '—'}</dd>
        </div>
        <div className="details__wide">
          <dt>Signage terms</dt>
          <dd>{terms.carPark?.signageTerms || 'Not recorded'}</dd>
        </div>
      </dl>
    </Card>
  );
}

/** Other notices for the same vehicle, car park and day (one charge per parking event), with the officer's reason. */
export function PossibleDuplicates({ pcn }: { pcn: Pcn }) {
  const others = pcn.possibleDuplicates ?? [];
  if (others.length === 0 && !pcn.duplicateReason) return null;
  return (
    <Card title="Possible duplicates" titleId="review-duplicates-title">
      <div className="form-stack">
        {others.length > 0 ? (
          <>
            <p className="duplicate-note">
              <Copy aria-hidden="true" size={18} />
              Same vehicle, car park and day as {others.length === 1 ? 'another notice' : `${others.length} other notices`}:
            </p>
            <ul className="duplicate-links">
              {others.map((other) => (
                <li key={other.id}>
                  <Link href={reviewHref(other.id)} className="text-link">
                    {pcnTitle(other.pcnNumber)}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="muted">No other notice for this parking event remains.</p>
        )}
        {pcn.duplicateReason ? (
          <div>
            <p className="details__label">Officer&apos;s reason for filing this notice anyway</p>
            <p className="details__text">{pcn.duplicateReason}</p>
          </div>
        ) : (
          <p className="muted">
            No reason was given with this notice: the first notice of a parking event needs none, and one filed offline may have been sent
            before the warning could show.
          </p>
        )}
      </div>
    </Card>
  );
}
