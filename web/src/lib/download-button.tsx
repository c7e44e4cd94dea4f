import { useState, type ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { toApiError } from './api-client.ts';
import { Button } from './button.tsx';
import { saveBlobAsFile } from './save-file.ts';

type Props = {
  /** The file, fetched when pressed (with the caller's token). */
  load: () => Promise<Blob>;
  fileName: string | (() => string);
  label: string;
  busyLabel: string;
  /** Said to screen readers once the file is saved. */
  doneText: string;
  failedMessage: string;
  icon?: ReactNode;
  className?: string;
  'aria-label'?: string;
};

/**
 * A button that fetches a file and saves it: busy while it loads (a second press does nothing),
 * the outcome announced, a failure said beside it. Every download in the app (exports, evidence
 * packs, letters, attachments) is one of these.
 */
export function DownloadButton({
  load,
  fileName,
  label,
  busyLabel,
  doneText,
  failedMessage,
  icon,
  className,
  'aria-label': ariaLabel,
}: Props) {
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  async function download() {
    if (isBusy) return;
    setBusy(true);
    setError(null);
    setAnnouncement('');
    try {
      saveBlobAsFile(await load(), typeof fileName === 'string' ? fileName : fileName());
      setAnnouncement(doneText);
    } catch (e) {
      setError(toApiError(e, failedMessage).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={className}>
      <Button variant="secondary" onPress={() => void download()} isDisabled={isBusy} aria-busy={isBusy} aria-label={ariaLabel}>
        {icon}
        {isBusy ? busyLabel : label}
      </Button>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
