import { CircleCheck, CircleX, Clock, Undo2 } from 'lucide-react';
import { APPEAL_STATUS_LABELS, type AppealStatus } from '@parkpatrol/shared';

const TONES: Record<AppealStatus, { tone: 'warning' | 'success' | 'error'; Icon: typeof Clock }> = {
  OPEN: { tone: 'warning', Icon: Clock },
  ACCEPTED: { tone: 'success', Icon: CircleCheck },
  ACCEPTED_REDUCED: { tone: 'success', Icon: CircleCheck },
  REJECTED: { tone: 'error', Icon: CircleX },
  DECLINED_LATE: { tone: 'error', Icon: CircleX },
  // Ended by the motorist without a decision: the charge stands as it would have without the appeal.
  WITHDRAWN: { tone: 'error', Icon: Undo2 },
};

/**
 * An appeal's status by text and icon as well as colour (WCAG 1.4.1), like the PCNs' StatusChip;
 * an open appeal made after the appeal period says so (it holds nothing until considered).
 */
export function AppealStatusChip({ status, isLate = false }: { status: AppealStatus; isLate?: boolean }) {
  const { tone, Icon } = TONES[status];
  return (
    <span className={`chip chip--${tone}`}>
      <Icon aria-hidden="true" size={14} />
      {status === 'OPEN' && isLate ? `${APPEAL_STATUS_LABELS[status]}, late` : APPEAL_STATUS_LABELS[status]}
    </span>
  );
}
