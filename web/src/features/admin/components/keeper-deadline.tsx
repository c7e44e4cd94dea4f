import { CalendarClock, TriangleAlert } from 'lucide-react';
import { keeperNoticeTimeLeft } from '@parkpatrol/shared';

/**
 * Time left before the keeper notice must go out. Under three days (the server's deadlineWarning)
 * it is a warning chip with an icon, overdue an error chip: the words always say it, so colour is
 * never the only signal (WCAG 1.4.1).
 */
export function KeeperDeadlineLeft({ dueAt, isWarning, now }: { dueAt: string; isWarning: boolean; now: Date }) {
  const left = keeperNoticeTimeLeft(dueAt, now);
  if (!isWarning && !left.isOverdue) {
    return (
      <span className="deadline-left">
        <CalendarClock aria-hidden="true" size={16} />
        {left.text}
      </span>
    );
  }
  return (
    <span className={`chip ${left.isOverdue ? 'chip--error' : 'chip--warning'}`}>
      <TriangleAlert aria-hidden="true" size={14} />
      {left.text}
    </span>
  );
}
