import { useState } from 'react';
import { Download } from 'lucide-react';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { saveBlobAsFile } from '../../../lib/save-file.ts';

type Props = {
  /** The server's CSV of exactly what the screen's filters select, every page. */
  load: () => Promise<Blob>;
  fileName: (now: Date) => string;
  failedMessage: string;
};

/** 'Export CSV' on Manage PCNs and Manage Users: saves the server's file. */
export function ExportButton({ load, fileName, failedMessage }: Props) {
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  async function download() {
    setBusy(true);
    setError(null);
    setAnnouncement('');
    try {
      saveBlobAsFile(await load(), fileName(new Date()));
      setAnnouncement('Exported.');
    } catch (e) {
      setError(toApiError(e, failedMessage).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="export-action">
      <Button variant="secondary" onPress={() => void download()} isDisabled={isBusy} aria-busy={isBusy}>
        <Download aria-hidden="true" size={18} />
        {isBusy ? 'Exporting…' : 'Export CSV'}
      </Button>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
