import { useParams } from 'react-router-dom';
import { ChevronLeft } from 'lucide-react';
import {
  describeNoticeToDriver,
  draftFirstSeenAt,
  draftReference,
  normaliseRegistration,
  OFFENCE_TYPE_LABELS,
  pcnTitle,
  SCREEN_TEXTS,
  type OffenceType,
} from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { LinkButton } from '../../lib/button.tsx';
import { Card } from '../../lib/card.tsx';
import { useCurrentUser } from '../../lib/current-user.tsx';
import { useFilingCarParks, useNoticeTerms } from '../../lib/filing-data.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { getLocalDb } from '../../lib/local-db/database.ts';
import { findDraftPhotos } from '../../lib/local-db/drafts.ts';
import { UNSENT_STATES, type DraftRecord } from '../../lib/local-db/records.ts';
import { PageHeading } from '../../lib/page-heading.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { useLiveQuery } from '../../lib/use-live-query.ts';
import { isServedToDriver, noticeCarParkOf, noticeFromDraft } from './notice-to-driver/notice-facts.ts';
import { PrintNoticeButton } from './notice-to-driver/print-notice-button.tsx';
import { Detail } from './detail-row.tsx';
import { BlobThumbnail } from './pcn-form/photo-thumbnail.tsx';

type Filed = { draft: DraftRecord; photos: Array<{ id: string; blob: Blob; takenAt: string | null }> };

/** The officer's own notice, filed and kept on this phone, with its photos; null when there is none. */
function useFiledNotice(draftId: string, userId: string | null) {
  return useLiveQuery(
    async (): Promise<Filed | null> => {
      if (!userId) return null;
      const db = getLocalDb();
      const draft = await db.drafts.get(draftId);
      // Another officer's notice on a shared phone, or an unfinished form: not this screen's.
      if (!draft || draft.userId !== userId || !(UNSENT_STATES.includes(draft.state) || draft.state === 'sent')) return null;
      const photos = await findDraftPhotos(db, draftId);
      return {
        draft,
        photos: photos.map((photo) => ({ id: photo.id, blob: new Blob([photo.bytes], { type: photo.type }), takenAt: photo.takenAt })),
      };
    },
    [draftId, userId],
    null,
  );
}

/**
 * A notice in the outbox (docs/product.md, Working offline), read from the phone with no signal:
 * its details as filed, its photos, and its notice to driver to print again (a jammed roll, a
 * ticket blown off the windscreen). It prints the draft reference, the one the notice keeps on
 * the server. `describeState` is the outbox's word for where it is ('Waiting for signal', …),
 * composed in by the app.
 */
export function OutboxNoticeScreen({ describeState }: { describeState: (draft: DraftRecord) => string }) {
  const { draftId = '' } = useParams();
  const userId = useCurrentUser()?.id ?? null;
  const filed = useFiledNotice(draftId, userId);
  const { carParks } = useFilingCarParks(userId, { refresh: false });
  const noticeTerms = useNoticeTerms(userId);

  if (filed.isLoading) return <Spinner />;
  if (!filed.value) {
    return (
      <div className="centered-message">
        <PageHeading>This notice is not on this phone</PageHeading>
        <LinkButton href={paths.pcns} variant="secondary">
          {SCREEN_TEXTS.backToList}
        </LinkButton>
      </div>
    );
  }
  const { draft, photos } = filed.value;
  const reference = draftReference(draft.id);
  const registration = normaliseRegistration(draft.vehicleRegistration);
  const carPark = carParks?.find((candidate) => candidate.id === draft.carParkId);
  const served = isServedToDriver(draft.noticeServedBy) ? draft.noticeServedBy : null;
  const filedAt = draft.issuedAt ?? (draft.queuedAt ? new Date(draft.queuedAt).toISOString() : null);
  return (
    <div className="page">
      <div>
        <LinkButton href={paths.pcns} variant="text">
          <ChevronLeft aria-hidden="true" size={20} />
          {SCREEN_TEXTS.back}
        </LinkButton>
      </div>
      <div>
        <PageHeading>{`${registration} · ${reference}`}</PageHeading>
        <p className="muted" role="status">
          {draft.state === 'sent' ? `Sent: ${pcnTitle(draft.serverPcnNumber ?? '')}` : `Not on the server yet: ${describeState(draft)}`}
        </p>
      </div>
      {draft.state === 'sent' && draft.serverPcnId ? (
        <div>
          <LinkButton href={paths.pcn(draft.serverPcnId)} variant="secondary">
            {`Open ${pcnTitle(draft.serverPcnNumber ?? '')}`}
          </LinkButton>
        </div>
      ) : null}
      <Card title="Details as filed" titleId="outbox-notice-details-title">
        <dl className="details">
          <Detail label="Vehicle Registration" value={registration} />
          <Detail label="Car Park" value={carPark?.name ?? SCREEN_TEXTS.unknownCarPark} />
          <Detail label="Offence Type" value={OFFENCE_TYPE_LABELS[draft.offenceType as OffenceType] ?? draft.offenceType} />
          <Detail label="Location" value={draft.location.trim()} />
          <Detail
            label="Notice to driver"
            value={describeNoticeToDriver(
              draft.noticeServedBy && draft.noticeServedAt ? { servedBy: draft.noticeServedBy, servedAt: draft.noticeServedAt } : null,
              formatDateTime,
            )}
          />
          <Detail label="Vehicle first seen" value={formatDateTime(draftFirstSeenAt(draft))} />
          <Detail label="Filed" value={formatDateTime(filedAt)} />
          <Detail label="Reference" value={reference} />
          <Detail label="Description" value={draft.description.trim() || '—'} isWide />
        </dl>
      </Card>
      {served && draft.state !== 'sent' ? (
        <Card title="Notice to driver" titleId="outbox-notice-print-title">
          <p className="muted">{`It prints the reference ${reference}, which this notice keeps once it reaches the server.`}</p>
          <PrintNoticeButton notice={() => noticeFromDraft(draft, carPark && noticeCarParkOf(carPark), noticeTerms)} />
        </Card>
      ) : null}
      {photos.length > 0 ? (
        <Card title={`Photos on this phone (${photos.length})`} titleId="outbox-notice-photos-title">
          <ul className="previews" aria-labelledby="outbox-notice-photos-title">
            {photos.map((photo, index) => (
              <li key={photo.id} className="preview">
                <BlobThumbnail
                  blob={photo.blob}
                  alt={`Photo ${index + 1} of ${registration}${photo.takenAt ? `, taken ${formatDateTime(photo.takenAt)}` : ''}`}
                />
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}
