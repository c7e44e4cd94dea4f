import { useState } from 'react';
import { Download } from 'lucide-react';
import { pcnExportFileName } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { saveBlobAsFile } from '../../../lib/save-file.ts';
import { exportPcnsCsv, PCN_EXPORT_FAILED, type AdminPcnFilters } from '../api/pcns.ts';

/**
 * 'Export CSV' on Manage PCNs (issue 14): exactly the PCNs the filters select, every page, in
 * the list's order; the server writes the file and names it by the day.
 */
export function ExportPcnsButton({ filters }: { filters: Omit<AdminPcnFilters, 'page' | 'limit'> }) {
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  async function download() {
    setBusy(true);
    setError(null);
    setAnnouncement('');
    try {
      saveBlobAsFile(await exportPcnsCsv(filters), pcnExportFileName(new Date()));
      setAnnouncement('PCNs exported.');
    } catch (e) {
      setError(toApiError(e, PCN_EXPORT_FAILED).message);
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
