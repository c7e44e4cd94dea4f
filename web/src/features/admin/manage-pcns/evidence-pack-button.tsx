import { FileDown } from 'lucide-react';
import { EVIDENCE_PACK_TEXTS, evidencePackFileName } from '@parkpatrol/shared';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { getEvidencePack } from '../api/pcns.ts';
import './evidence-pack-button.css';

/** 'Download evidence pack' on the review view: the PDF for an appeal, saved as a file. */
export function EvidencePackButton({ pcnId, pcnNumber }: { pcnId: string; pcnNumber: string }) {
  return (
    <DownloadButton
      className="evidence-pack-action"
      load={() => getEvidencePack(pcnId)}
      fileName={evidencePackFileName(pcnNumber)}
      label={EVIDENCE_PACK_TEXTS.download}
      busyLabel={EVIDENCE_PACK_TEXTS.preparing}
      doneText={EVIDENCE_PACK_TEXTS.downloaded}
      failedMessage={EVIDENCE_PACK_TEXTS.failed}
      icon={<FileDown aria-hidden="true" size={18} />}
    />
  );
}
