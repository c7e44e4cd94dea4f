import { useState } from 'react';
import { formatUkDateTime, type Appeal } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { APPEAL_CONSIDER_FAILED, considerAppeal } from '../api/appeals.ts';
import { DecisionForm } from './decision-form.tsx';
import { DecisionRecord } from './decision-record.tsx';

type Props = {
  appeal: Appeal;
  /** The appeal as the decision left it. */
  onDecided: (appeal: Appeal) => void;
  /** The appeal changed on the server (decided by someone else): load it again. */
  onStale: () => void;
  className?: string;
};

/**
 * The form while the appeal is open; once decided, the decision as recorded and its letter. A late
 * appeal says so first, with the choice to take it into consideration (it then holds the charge).
 */
export function DecisionCard({ appeal, onDecided, onStale, className }: Props) {
  const [isJustDecided, setJustDecided] = useState(false);
  return (
    <Card title="Decision" titleId="appeal-decision-title" className={className}>
      {appeal.decision === null && appeal.isLate ? <LateAppealNote appeal={appeal} onConsidered={onDecided} onStale={onStale} /> : null}
      {appeal.decision ? (
        <DecisionRecord appeal={appeal} decision={appeal.decision} isJustDecided={isJustDecided} />
      ) : (
        <DecisionForm
          appeal={appeal}
          onDecided={(decided) => {
            setJustDecided(true);
            onDecided(decided);
          }}
          onStale={onStale}
        />
      )}
    </Card>
  );
}

function LateAppealNote({
  appeal,
  onConsidered,
  onStale,
}: {
  appeal: Appeal;
  onConsidered: (appeal: Appeal) => void;
  onStale: () => void;
}) {
  const form = useFormSubmit({
    fallbackMessage: APPEAL_CONSIDER_FAILED,
    onError: (error) => {
      if (error.status === 409) onStale();
    },
  });
  const consider = form.handle(
    () => ({ success: true, data: null }),
    async () => onConsidered(await considerAppeal(appeal.id)),
  );
  if (appeal.consideredAt) {
    return (
      <Alert tone="info">{`Made after the appeal period; taken into consideration on ${formatUkDateTime(appeal.consideredAt)}: the charge is on hold.`}</Alert>
    );
  }
  return (
    <form className="form-stack" onSubmit={consider} aria-label="Late appeal">
      <Alert tone="info">
        Made after the appeal period: the charge is not on hold. Take it into consideration (the charge is then on hold and it runs like any
        appeal), decide it on its merits, or decline it as out of time.
      </Alert>
      {form.formError ? <Alert>{form.formError}</Alert> : null}
      <div className="form-actions">
        <Button type="submit" variant="secondary" isDisabled={form.isBusy}>
          {form.isBusy ? 'Saving...' : 'Take into consideration'}
        </Button>
      </div>
    </form>
  );
}
