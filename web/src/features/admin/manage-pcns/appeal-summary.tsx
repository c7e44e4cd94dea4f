import { formatCalendarDate, type Pcn } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { AppealStatusChip } from '../appeals/appeal-status-chip.tsx';

/** The motorist's appeal against this charge, if any, with the way to the Appeals desk (decision 0019). */
export function AppealSummary({ pcn }: { pcn: Pcn }) {
  const appeal = pcn.appeal;
  if (!appeal) return null;
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
