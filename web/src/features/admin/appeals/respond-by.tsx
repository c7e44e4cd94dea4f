import { endOfUkDay, formatCalendarDate, keeperNoticeTimeLeft, type AppealStatus } from '@parkpatrol/shared';
import { KeeperDeadlineLeft } from '../components/keeper-deadline.tsx';

/** Under this many days left an open appeal's respond-by date is a warning, as the keeper deadline is. */
const SOON_DAYS = 3;

type Props = { respondBy: string; status: AppealStatus; now: Date };

/** Whether an open appeal is near or past its respond-by date. */
export function isRespondBySoon({ respondBy, status, now }: Props): boolean {
  return status === 'OPEN' && keeperNoticeTimeLeft(endOfUkDay(respondBy), now).wholeDaysLeft < SOON_DAYS;
}

/**
 * The time left to the end of the respond-by day (UK), while the appeal is open: soon a warning
 * chip, past it an "Overdue" error chip (words and icon, never colour alone). A decided appeal's
 * date is history, so nothing is shown.
 */
export function RespondByLeft(props: Props) {
  if (props.status !== 'OPEN') return null;
  return <KeeperDeadlineLeft dueAt={endOfUkDay(props.respondBy)} isWarning={isRespondBySoon(props)} now={props.now} />;
}

/** The queue's cell: the date, and below it the time left. */
export function RespondBy(props: Props) {
  return (
    <span className="chip-stack">
      {formatCalendarDate(props.respondBy)}
      <RespondByLeft {...props} />
    </span>
  );
}
