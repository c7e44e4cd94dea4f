import { Download } from 'lucide-react';
import { DownloadButton } from '../../../lib/download-button.tsx';

type Props = {
  /** The server's CSV of exactly what the screen's filters select, every page. */
  load: () => Promise<Blob>;
  fileName: (now: Date) => string;
  failedMessage: string;
};

/** 'Export CSV' on Manage PCNs, Manage Users and Appeals: saves the server's file. */
export function ExportButton({ load, fileName, failedMessage }: Props) {
  return (
    <DownloadButton
      className="export-action"
      load={load}
      fileName={() => fileName(new Date())}
      label="Export CSV"
      busyLabel="Exporting…"
      doneText="Exported."
      failedMessage={failedMessage}
      icon={<Download aria-hidden="true" size={18} />}
    />
  );
}
