import { useState } from 'react';
import type { Appeal } from '@parkpatrol/shared';
import { Card } from '../../../lib/card.tsx';
import { DecisionForm } from './decision-form.tsx';
import { DecisionRecord } from './decision-record.tsx';

type Props = {
  appeal: Appeal;
  /** The appeal as the decision left it. */
  onDecided: (appeal: Appeal) => void;
  /** The appeal changed on the server (decided by someone else): load it again. */
  onStale: () => void;
};

/** The form while the appeal is open; once decided, the decision as recorded and its letter. */
export function DecisionCard({ appeal, onDecided, onStale }: Props) {
  const [isJustDecided, setJustDecided] = useState(false);
  return (
    <Card title="Decision" titleId="appeal-decision-title">
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
