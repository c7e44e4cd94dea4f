import { CloudOff } from 'lucide-react';
import { formatDateTime } from './format-date.ts';
import { listAsOfNote, NO_LIST_KEPT_NOTE } from './list-as-of.ts';

/** Said wherever a screen shows what the phone kept because the server could not be reached. */
export function StaleNote({ storedAt }: { storedAt: number | null }) {
  if (storedAt === null) return null;
  return (
    <p className="stale-note" role="status">
      <CloudOff aria-hidden="true" size={16} />
      {`No connection: shown as saved on this phone at ${formatDateTime(new Date(storedAt).toISOString())}, possibly out of date.`}
    </p>
  );
}

/**
 * An officer's list (My PCNs, the dashboard) when the server could not be reached: what it shows
 * is the last list the phone had, and as of when ('No signal: your list as of 07:49'), or that
 * there is none yet. Said instead of an error: no signal is not the officer's fault to fix.
 */
export function ListAsOfNote({ isUnreachable, asOf }: { isUnreachable: boolean; asOf: number | null }) {
  if (!isUnreachable) return null;
  return (
    <p className="stale-note" role="status">
      <CloudOff aria-hidden="true" size={16} />
      {asOf === null ? NO_LIST_KEPT_NOTE : listAsOfNote(asOf, Date.now())}
    </p>
  );
}
