import { useState } from 'react';
import { FileDown } from 'lucide-react';
import { EVIDENCE_PACK_TEXTS, evidencePackFileName } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { saveBlobAsFile } from '../../../lib/save-file.ts';
import { getEvidencePack } from '../api/pcns.ts';
import './evidence-pack-button.css';

/** 'Download evidence pack' on the review view: the PDF for an appeal, saved as a file. */
export function EvidencePackButton({ pcnId, pcnNumber }: { pcnId: string; pcnNumber: string }) {
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  async function download() {
    if (isBusy) return;
    setBusy(true);
    setError(null);
    setAnnouncement('');
    try {
      saveBlobAsFile(await getEvidencePack(pcnId), evidencePackFileName(pcnNumber));
      setAnnouncement(EVIDENCE_PACK_TEXTS.downloaded);
    } catch (e) {
      setError(toApiError(e, EVIDENCE_PACK_TEXTS.failed).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="evidence-pack-action">
      <Button variant="secondary" onPress={() => void download()} isDisabled={isBusy} aria-busy={isBusy}>
        <FileDown aria-hidden="true" size={18} />
        {isBusy ? EVIDENCE_PACK_TEXTS.preparing : EVIDENCE_PACK_TEXTS.download}
      </Button>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
