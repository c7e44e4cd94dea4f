import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { ChevronLeft } from 'lucide-react';
import { formatCalendarDate, formatUkDateTime, pcnTitle, type Appeal, type AppealSetAside } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { APPEAL_FETCH_FAILED, getAppeal } from '../api/appeals.ts';
import { queueHref } from './appeal-href.ts';
import { AppealStatusChip } from './appeal-status-chip.tsx';
import { AppellantCard } from './appellant-card.tsx';
import { ChargeEvidence } from './charge-evidence.tsx';
import { DecisionCard } from './decision-card.tsx';
import { isRespondBySoon, RespondByLeft } from './respond-by.tsx';
import { SetAsideAppeal } from './set-aside-appeal.tsx';
import '../admin.css';

/** An appeal the motorist withdrew (decision 0044): nothing to decide, and what it left of the discount. */
function WithdrawnCard({ withdrawal }: { withdrawal: NonNullable<Appeal['withdrawal']> }) {
  return (
    <Card title="Decision" titleId="appeal-decision-title" className="review-decision">
      <p>{`Withdrawn by the motorist on ${formatUkDateTime(withdrawal.withdrawnAt)}: there is nothing to decide, and the charge is no longer on hold.`}</p>
      {withdrawal.reducedHeldUntil ? (
        <p>{`The appeal came while the reduced amount applied, so it stays open to the motorist until ${formatCalendarDate(withdrawal.reducedHeldUntil)}.`}</p>
      ) : null}
    </Card>
  );
}

/** /admin/appeals/:id: one appeal, decided beside the charge's evidence. */
export function AppealScreen() {
  const { id = '' } = useParams();
  const [listParams] = useSearchParams();
  const backHref = queueHref(listParams);
  const nav = (
    <nav className="review-nav" aria-label="Appeal navigation">
      <LinkButton href={backHref} variant="text">
        <ChevronLeft aria-hidden="true" size={20} />
        Back to appeals
      </LinkButton>
    </nav>
  );
  return (
    <div className="page">
      {nav}
      <AppealView key={id} appealId={id} />
    </div>
  );
}

function AppealView({ appealId }: { appealId: string }) {
  const loaded = useAsync(() => getAppeal(appealId), [appealId], APPEAL_FETCH_FAILED);
  // The decision's answer is the appeal as it now stands: shown at once, without another fetch.
  const [decided, setDecided] = useState<Appeal | null>(null);
  // Days left are counted from when the view opened, not from each render.
  const [openedAt] = useState(() => new Date());
  const appeal = decided ?? loaded.data ?? null;
  const [setAside, setSetAside] = useState<AppealSetAside | null>(null);

  if (setAside && appeal) {
    return (
      <>
        <PageHeading>Appeal {setAside.reference} set aside</PageHeading>
        <Alert tone="info">
          {`It no longer holds ${pcnTitle(appeal.pcnNumber)}, and the charge is free for the motorist’s own appeal: they can appeal online, or you can record their appeal from the notice’s review screen.`}
        </Alert>
      </>
    );
  }
  if (!appeal && loaded.isLoading) return <Spinner />;
  if (!appeal) return <PageHeading>{loaded.error?.message ?? APPEAL_FETCH_FAILED}</PageHeading>;
  const respondBy = { respondBy: appeal.respondBy, status: appeal.status, now: openedAt };
  return (
    <>
      <div className="page-header">
        <PageHeading>Appeal {appeal.reference}</PageHeading>
        <AppealStatusChip status={appeal.status} isLate={appeal.isLate && appeal.consideredAt === null} />
      </div>
      <p className={`deadline-line${isRespondBySoon(respondBy) ? ' deadline-line--warning' : ''}`}>
        <span>
          Respond by <strong>{formatCalendarDate(appeal.respondBy)}</strong>
        </span>
        <RespondByLeft {...respondBy} />
      </p>
      {/* As the PCN review: the appeal and the charge's evidence on the left, the decision beside
          them in a column that stays in view on a desktop, and first on a tablet or phone. */}
      <div className="review-layout">
        <div className="page review-layout__main">
          <AppellantCard appeal={appeal} />
          <ChargeEvidence appeal={appeal} />
        </div>
        <div className="page review-layout__aside">
          {appeal.withdrawal ? (
            <WithdrawnCard withdrawal={appeal.withdrawal} />
          ) : (
            <DecisionCard appeal={appeal} onDecided={setDecided} onStale={loaded.reload} className="review-decision" />
          )}
          {appeal.status === 'OPEN' ? <SetAsideAppeal appeal={appeal} onSetAside={setSetAside} onStale={loaded.reload} /> : null}
        </div>
      </div>
    </>
  );
}
