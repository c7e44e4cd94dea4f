import { photosPurgedNotice } from '@parkpatrol/shared';
import { Alert } from './alert.tsx';
import { formatDate } from './format-date.ts';
import './photos-purged-notice.css';

/**
 * Shown in place of photos whose files were removed under the retention policy, on
 * the officer's detail page and the admin review alike: no broken images, and the reason why.
 */
export function PhotosPurgedNotice({ purgedAt }: { purgedAt: string | null | undefined }) {
  if (!purgedAt) return null;
  return (
    <Alert tone="info" className="photos-purged-notice">
      <p>{photosPurgedNotice(formatDate(purgedAt))}</p>
      <p>Each photo&apos;s capture time, position and SHA-256 checksum are kept below.</p>
    </Alert>
  );
}
