import { useEffect, useState } from 'react';
import { Download } from 'lucide-react';
import type { AppealAttachment } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { APPEAL_ATTACHMENT_FAILED, getAppealAttachment } from '../api/appeals.ts';

/** Types a browser draws in an <img>; a HEIC photo or a PDF is saved and opened outside instead. */
const SHOWN_INLINE = new Set(['image/jpeg', 'image/png', 'image/webp']);
const KINDS: Record<string, { label: string; extension: string }> = {
  'image/jpeg': { label: 'JPEG photo', extension: 'jpg' },
  'image/png': { label: 'PNG image', extension: 'png' },
  'image/webp': { label: 'WebP image', extension: 'webp' },
  'image/heic': { label: 'HEIC photo', extension: 'heic' },
  'application/pdf': { label: 'PDF', extension: 'pdf' },
};

function kindOf(mimeType: string) {
  return KINDS[mimeType] ?? { label: mimeType, extension: 'bin' };
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const nameOf = (index: number, attachment: AppealAttachment) => `Attachment ${index + 1}: ${attachment.originalName}`;

/**
 * The motorist's files, each with its SHA-256 as stored (the audit trail has the same hashes).
 * They need the admin's token, so each is fetched as a Blob: photos are drawn from an object URL,
 * other files are saved under a name we make (never the motorist's own, which is only shown).
 * A file the retention policy removed is not asked for: its name and hash are what remain.
 */
export function AppealAttachments({ appealId, attachments }: { appealId: string; attachments: AppealAttachment[] }) {
  return (
    <section className="appeal-words" aria-labelledby="appeal-attachments-title">
      <h3 id="appeal-attachments-title" className="appeal-words__title">
        Attachments ({attachments.length})
      </h3>
      {attachments.length === 0 ? (
        <p className="muted">No files were attached.</p>
      ) : (
        <ul className="evidence-large appeal-attachments">
          {attachments.map((attachment, index) => (
            <li key={attachment.id} className="evidence-photo">
              {attachment.purgedAt ? (
                <p className="muted">Removed under the retention policy on {formatDate(attachment.purgedAt)}; its SHA-256 is kept below.</p>
              ) : SHOWN_INLINE.has(attachment.mimeType) ? (
                <AttachmentImage appealId={appealId} attachment={attachment} alt={nameOf(index, attachment)} />
              ) : null}
              <dl className="photo-facts">
                <div>
                  <dt>File</dt>
                  <dd>{nameOf(index, attachment)}</dd>
                </div>
                <div>
                  <dt>Type and size</dt>
                  <dd>
                    {kindOf(attachment.mimeType).label}, {formatFileSize(attachment.sizeBytes)}
                  </dd>
                </div>
                <div>
                  <dt>SHA-256</dt>
                  <dd>
                    <code className="hash">{attachment.sha256}</code>
                  </dd>
                </div>
              </dl>
              {attachment.purgedAt ? null : (
                <AttachmentDownload appealId={appealId} attachment={attachment} name={nameOf(index, attachment)} position={index + 1} />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AttachmentImage({ appealId, attachment, alt }: { appealId: string; attachment: AppealAttachment; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let isCurrent = true;
    getAppealAttachment(appealId, attachment.id).then(
      (blob) => {
        if (!isCurrent) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      (e: unknown) => {
        if (isCurrent) setError(toApiError(e, APPEAL_ATTACHMENT_FAILED).message);
      },
    );
    // The bytes stay in memory while the URL lives: let them go with the view.
    return () => {
      isCurrent = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [appealId, attachment.id]);
  if (error) return <Alert>{error}</Alert>;
  if (!url) return <div className="appeal-attachments__placeholder" aria-hidden="true" />;
  return <img src={url} alt={alt} />;
}

function AttachmentDownload({
  appealId,
  attachment,
  name,
  position,
}: {
  appealId: string;
  attachment: AppealAttachment;
  name: string;
  position: number;
}) {
  return (
    <DownloadButton
      load={() => getAppealAttachment(appealId, attachment.id)}
      fileName={`appeal-attachment-${position}.${kindOf(attachment.mimeType).extension}`}
      label="Download"
      busyLabel="Downloading…"
      doneText={`${name} downloaded.`}
      failedMessage={APPEAL_ATTACHMENT_FAILED}
      icon={<Download aria-hidden="true" size={18} />}
      aria-label={`Download ${name}`}
    />
  );
}
