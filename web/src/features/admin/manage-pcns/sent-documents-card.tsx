import { FileDown } from 'lucide-react';
import { formatCalendarDate, SENT_DOCUMENT_KIND_LABELS, type Pcn, type SentDocument } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Card } from '../../../lib/card.tsx';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useAsync } from '../../../lib/use-async.ts';
import { DOCUMENT_DOWNLOAD_FAILED, DOCUMENTS_FAILED, downloadSentDocument, getSentDocuments } from '../api/documents.ts';
import './sent-documents-card.css';

/**
 * What was sent for this charge, as kept (decision 0025): each document with when it was made,
 * the day a letter is dated, who made it and its SHA-256, and its download, the same bytes.
 */
export function SentDocumentsCard({ pcn }: { pcn: Pcn }) {
  // Read again when the notice changes: a letter made or a decision taken elsewhere shows up.
  const documents = useAsync(() => getSentDocuments(pcn.id), [pcn.id, pcn.updatedAt, pcn.status], DOCUMENTS_FAILED);
  return (
    <Card title="Documents sent" titleId="review-documents-title">
      {documents.error ? <Alert>{documents.error.message}</Alert> : null}
      {documents.isLoading && !documents.data ? <p className="muted">Loading the documents…</p> : null}
      {documents.data && documents.data.length === 0 ? <p className="muted">Nothing has been sent for this charge yet.</p> : null}
      {documents.data && documents.data.length > 0 ? (
        <ul className="sent-documents" aria-labelledby="review-documents-title">
          {documents.data.map((document) => (
            <SentDocumentItem key={document.id} pcnId={pcn.id} document={document} />
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

function SentDocumentItem({ pcnId, document }: { pcnId: string; document: SentDocument }) {
  const label = SENT_DOCUMENT_KIND_LABELS[document.kind];
  const when = document.postOn ? `dated ${formatCalendarDate(document.postOn)}` : formatDateTime(document.createdAt);
  return (
    <li className="sent-documents__item">
      <p className="sent-documents__title">
        <strong>{label}</strong>
        {document.reference ? ` (${document.reference})` : ''}, {when}
      </p>
      <p className="muted">
        Made {formatDateTime(document.createdAt)} by {document.createdBy.name}
      </p>
      <p className="sent-documents__hash">
        SHA-256 <code>{document.sha256}</code>
      </p>
      {document.purgedAt ? (
        <p className="muted">Removed under the retention policy on {formatDateTime(document.purgedAt)}; its hash is kept.</p>
      ) : (
        <DownloadButton
          load={() => downloadSentDocument(pcnId, document.id)}
          fileName={document.fileName}
          label="Download"
          aria-label={`Download the ${label.toLowerCase()}, ${when}`}
          busyLabel="Downloading..."
          doneText={`${label} downloaded`}
          failedMessage={DOCUMENT_DOWNLOAD_FAILED}
          icon={<FileDown aria-hidden="true" size={18} />}
        />
      )}
    </li>
  );
}
