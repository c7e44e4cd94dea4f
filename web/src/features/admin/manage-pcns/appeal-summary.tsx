import { Link } from 'react-aria-components';
import { formatCalendarDate, type Pcn } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { AppealStatusChip } from '../appeals/appeal-status-chip.tsx';

/**
 * Under the review's heading, in the first view: the charge has an appeal, where it stands (its
 * outcome once decided), when it came, and the way to it on the Appeals desk.
 */
export function AppealLine({ pcn }: { pcn: Pcn }) {
  const appeal = pcn.appeal;
  if (!appeal) return null;
  const since = appeal.decidedAt
    ? `decided ${formatDateTime(appeal.decidedAt)}`
    : appeal.status === 'OPEN'
      ? `respond by ${formatCalendarDate(appeal.respondBy)}`
      : null;
  return (
    <p className="deadline-line">
      <AppealStatusChip status={appeal.status} />
      <span>{`Appeal ${appeal.reference}, received ${formatDateTime(appeal.receivedAt)}${since ? `; ${since}` : ''}`}</span>
      <Link href={paths.admin.appeal(appeal.id)} className="text-link">
        {`Open appeal ${appeal.reference}`}
      </Link>
    </p>
  );
}

/** The motorist's appeal against this charge, if any, with the way to the Appeals desk (decision 0019), or to record one (decision 0024). */
export function AppealSummary({ pcn }: { pcn: Pcn }) {
  const appeal = pcn.appeal;
  if (!appeal) {
    // Appeals also come by email, post or phone: an admin enters them against the charge still owed.
    if (pcn.appeal === undefined || pcn.status === 'PAID' || pcn.status === 'CANCELLED' || pcn.status === 'REJECTED') return null;
    return (
      <Card title="Appeal" titleId="review-appeal-title">
        <p className="muted">No appeal yet. One that came by email, post or phone is recorded here, from the day it came.</p>
        <LinkButton href={paths.admin.newAppeal(pcn.id)} variant="secondary">
          Record an appeal
        </LinkButton>
      </Card>
    );
  }
  return (
    <Card title="Appeal" titleId="review-appeal-title">
      <dl className="details">
        <div>
          <dt>Reference</dt>
          <dd>{appeal.reference}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <AppealStatusChip status={appeal.status} />
          </dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>{formatDateTime(appeal.receivedAt)}</dd>
        </div>
        {appeal.decidedAt ? (
          <div>
            <dt>Decided</dt>
            <dd>{formatDateTime(appeal.decidedAt)}</dd>
          </div>
        ) : null}
        {appeal.status === 'OPEN' ? (
          <div>
            <dt>Respond by</dt>
            <dd>{formatCalendarDate(appeal.respondBy)}</dd>
          </div>
        ) : null}
      </dl>
      {appeal.status === 'OPEN' ? <p className="muted">The charge is on hold while the appeal is open.</p> : null}
      {appeal.status === 'WITHDRAWN' ? <p className="muted">The motorist withdrew the appeal: it no longer holds the charge.</p> : null}
      <LinkButton href={paths.admin.appeal(appeal.id)} variant="secondary">
        Open the appeal
      </LinkButton>
    </Card>
  );
}
