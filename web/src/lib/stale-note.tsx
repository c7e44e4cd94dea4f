import { CloudOff } from 'lucide-react';
import { formatDateTime } from './format-date.ts';

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
