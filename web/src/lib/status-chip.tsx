import { PCN_STATUS_GROUPS, PCN_STATUS_LABELS, type PcnStatus } from '@parkpatrol/shared';
import { CircleCheck, CircleX, Clock } from 'lucide-react';

const GROUP_ICONS = { warning: Clock, success: CircleCheck, error: CircleX } as const;

/** Status shown by text and icon as well as colour (WCAG 1.4.1). */
export function StatusChip({ status }: { status: PcnStatus }) {
  const group = PCN_STATUS_GROUPS[status];
  const Icon = GROUP_ICONS[group];
  return (
    <span className={`chip chip--${group}`}>
      <Icon aria-hidden="true" size={14} />
      {PCN_STATUS_LABELS[status]}
    </span>
  );
}

export function StatusIcon({ status, size = 20 }: { status: PcnStatus; size?: number }) {
  const group = PCN_STATUS_GROUPS[status];
  const Icon = GROUP_ICONS[group];
  return <Icon aria-hidden="true" size={size} className={`status-icon status-icon--${group}`} />;
}
