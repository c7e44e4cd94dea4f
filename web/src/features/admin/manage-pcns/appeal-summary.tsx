import { formatCalendarDate, type Pcn } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { AppealStatusChip } from '../appeals/appeal-status-chip.tsx';

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
        {appeal.status === 'OPEN' ? (
          <div>
            <dt>Respond by</dt>
            <dd>{formatCalendarDate(appeal.respondBy)}</dd>
          </div>
        ) : null}
      </dl>
      {appeal.status === 'OPEN' ? <p className="muted">The charge is on hold while the appeal is open.</p> : null}
      <LinkButton href={paths.admin.appeal(appeal.id)} variant="secondary">
        Open the appeal
      </LinkButton>
    </Card>
  );
}
