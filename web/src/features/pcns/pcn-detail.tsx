import { useParams } from 'react-router-dom';
import { ChevronLeft, Pencil } from 'lucide-react';
import {
  ERROR_MESSAGES,
  isEditableStatus,
  describeNoticeToDriver,
  OFFENCE_TYPE_LABELS,
  pcnTitle,
  SCREEN_TEXTS,
  type Pcn,
} from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { Alert } from '../../lib/alert.tsx';
import { LinkButton } from '../../lib/button.tsx';
import { Card } from '../../lib/card.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { PageHeading } from '../../lib/page-heading.tsx';
import { PhotosPurgedNotice } from '../../lib/photos-purged-notice.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { StatusChip } from '../../lib/status-chip.tsx';
import { StaleNote } from '../../lib/stale-note.tsx';
import { useCachedAsync } from '../../lib/use-cached-async.ts';
import { useCurrentUser } from '../../lib/current-user.tsx';
import { useFilingCarParks } from '../../lib/filing-data.ts';
import { noticeFromPcn } from './notice-to-driver/notice-facts.ts';
import { PrintNoticeButton } from './notice-to-driver/print-notice-button.tsx';
import { getPcn } from './api/get-pcn.ts';
import { CaptureFactsList } from './evidence/capture-facts-list.tsx';
import { Detail } from './detail-row.tsx';

export function PcnDetailScreen() {
  const { id = '' } = useParams();
  const pcn = useCachedAsync(`pcn:${id}`, () => getPcn(id), [id], ERROR_MESSAGES.fetchPcn);

  if (pcn.isLoading && !pcn.data) return <Spinner />;
  if (!pcn.data) {
    const isNotFound = !pcn.error || pcn.error.status === 404 || pcn.error.status === 403;
    return (
      <div className="centered-message">
        <PageHeading>{isNotFound ? ERROR_MESSAGES.pcnNotFound : pcn.error?.message}</PageHeading>
        <LinkButton href={paths.pcns} variant="secondary">
          {SCREEN_TEXTS.backToList}
        </LinkButton>
      </div>
    );
  }
  return <PcnDetails pcn={pcn.data} error={pcn.error?.message} staleSince={pcn.staleSince} />;
}

function PcnDetails({ pcn, error, staleSince }: { pcn: Pcn; error: string | undefined; staleSince: number | null }) {
  const title = pcnTitle(pcn.pcnNumber);
  // The land's address is printed from the officer's car parks kept on the phone.
  const carParks = useFilingCarParks(useCurrentUser()?.id ?? null, { refresh: false }).carParks;
  const carParkAddress = carParks?.find((carPark) => carPark.id === pcn.carParkId);
  return (
    <div className="page">
      <div>
        <LinkButton href={paths.pcns} variant="text">
          <ChevronLeft aria-hidden="true" size={20} />
          {SCREEN_TEXTS.back}
        </LinkButton>
      </div>
      <div className="page-header">
        <PageHeading>{title}</PageHeading>
        {isEditableStatus(pcn.status) ? (
          <LinkButton href={paths.editPcn(pcn.id)} variant="secondary">
            <Pencil aria-hidden="true" size={18} />
            {SCREEN_TEXTS.editPcn}
          </LinkButton>
        ) : null}
      </div>
      <StaleNote storedAt={staleSince} />
      {error ? <Alert>{error}</Alert> : null}
      <Card title="Details" titleId="pcn-details-title">
        <dl className="details">
          <div className="details__wide">
            <dt>Status</dt>
            <dd>
              <StatusChip status={pcn.status} />
            </dd>
          </div>
          <Detail label="Vehicle Registration" value={pcn.vehicleRegistration} />
          <Detail label="Car Park" value={pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark} />
          <Detail label="Offence Type" value={OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType} />
          <Detail label="Location" value={pcn.location} />
          <Detail label="Notice to driver" value={describeNoticeToDriver(pcn.noticeToDriver, formatDateTime)} />
          <Detail label="Submitted" value={formatDateTime(pcn.createdAt)} />
          <Detail label="Last Updated" value={formatDateTime(pcn.updatedAt)} />
          <Detail label="Description" value={pcn.description || '—'} isWide />
          {pcn.adminNotes ? <Detail label="Admin Notes" value={pcn.adminNotes} isWide /> : null}
        </dl>
      </Card>
      {pcn.noticeToDriver && pcn.noticeToDriver.servedBy !== 'DRIVE_OFF' ? (
        <Card title="Notice to driver" titleId="pcn-notice-title">
          <PrintNoticeButton notice={() => noticeFromPcn(pcn, carParkAddress)} />
        </Card>
      ) : null}
      <Card title="Evidence Images" titleId="pcn-evidence-title">
        <PhotosPurgedNotice purgedAt={pcn.photosPurgedAt} />
        {pcn.images.length === 0 ? (
          <p className="muted">{SCREEN_TEXTS.noImages}</p>
        ) : (
          // Each photo beside its capture facts: what it shows, when, where, and its checksum.
          <div className="evidence-grid">
            <CaptureFactsList
              images={pcn.images}
              offenceType={pcn.offenceType}
              renderPhoto={(image, index) =>
                image.url ? (
                  <a
                    className="capture-facts__image"
                    href={image.url}
                    target="_blank"
                    rel="noreferrer"
                    aria-label={`Open evidence image ${index + 1} of ${pcn.images.length} in a new tab`}
                  >
                    {/* The thumbnail (about 320 px) draws the grid; the link opens the original. */}
                    <img src={image.thumbnailUrl ?? image.url} alt={`Evidence image ${index + 1} of ${title}`} loading="lazy" />
                  </a>
                ) : null
              }
            />
          </div>
        )}
      </Card>
    </div>
  );
}
