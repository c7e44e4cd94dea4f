import { CircleCheck, CircleX, ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react';
import {
  checklistCoverage,
  OFFENCE_TYPE_LABELS,
  OFFENCE_PHOTO_CHECKLIST,
  SCREEN_TEXTS,
  TAKEN_AT_SOURCE_LABELS,
  type Pcn,
  type PcnImage,
} from '@parkpatrol/shared';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { PhotosPurgedNotice } from '../../../lib/photos-purged-notice.tsx';

const photoName = (index: number) => `Photo ${index + 1}`;

/** The photos with what each one proves: when and where it was taken, what it shows, and its bytes' hashes. */
export function EvidencePhotos({ pcn, title }: { pcn: Pcn; title: string }) {
  const labels = new Map(OFFENCE_PHOTO_CHECKLIST[pcn.offenceType].map((item) => [item.id as string, item.label]));
  return (
    <Card title="Evidence" titleId="review-evidence-title">
      <PhotosPurgedNotice purgedAt={pcn.photosPurgedAt} />
      {pcn.images.length === 0 ? (
        <p className="muted">{SCREEN_TEXTS.noImages}</p>
      ) : (
        <ul className="evidence-large">
          {pcn.images.map((image, index) => (
            <li key={image.id} className="evidence-photo" aria-labelledby={`evidence-photo-${image.id}`}>
              <h3 id={`evidence-photo-${image.id}`} className="evidence-photo__title">
                {photoName(index)}
              </h3>
              {image.url ? (
                <a
                  href={image.url}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={`Open evidence photo ${index + 1} of ${pcn.images.length} full size in a new tab`}
                >
                  <img
                    src={image.thumbnailUrl ?? image.url}
                    alt={`Evidence photo ${index + 1} of ${title}${image.takenAt ? `, taken ${formatDateTime(image.takenAt)}` : ''}`}
                    loading="lazy"
                  />
                </a>
              ) : null}
              <PhotoFacts image={image} shotLabel={(id) => labels.get(id) ?? id} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function PhotoFacts({ image, shotLabel }: { image: PcnImage; shotLabel: (id: string) => string }) {
  const hasPosition = typeof image.latitude === 'number' && typeof image.longitude === 'number';
  return (
    <dl className="photo-facts">
      <div>
        <dt>Taken</dt>
        <dd>
          {image.takenAt ? formatDateTime(image.takenAt) : 'Not recorded'}
          {image.takenAt && image.takenAtSource ? <span className="muted"> ({TAKEN_AT_SOURCE_LABELS[image.takenAtSource]})</span> : null}
        </dd>
      </div>
      <div>
        <dt>Position</dt>
        {/* Coordinates only: a map link would send the evidence's position to another origin. */}
        <dd>
          {hasPosition ? `${image.latitude!.toFixed(5)}, ${image.longitude!.toFixed(5)}` : 'Not recorded'}
          {hasPosition && typeof image.accuracyM === 'number' ? (
            <span className="muted"> (within {Math.round(image.accuracyM)} m)</span>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>Shows</dt>
        <dd>{image.shots?.length ? image.shots.map(shotLabel).join(', ') : 'Not marked'}</dd>
      </div>
      <div>
        <dt>SHA-256 on the server</dt>
        <dd>
          <code className="hash">{image.sha256}</code>
        </dd>
      </div>
      <div>
        <dt>SHA-256 on the device</dt>
        <dd>
          {image.clientSha256 ? <code className="hash">{image.clientSha256}</code> : null}
          <HashCheck image={image} />
        </dd>
      </div>
    </dl>
  );
}

/** Whether the bytes stored are the bytes the phone hashed when the photo was taken. */
function HashCheck({ image }: { image: PcnImage }) {
  if (!image.clientSha256) {
    return (
      <span className="chip chip--neutral">
        <ShieldQuestion aria-hidden="true" size={14} />
        Not sent by the device
      </span>
    );
  }
  const isVerified = image.clientSha256.toLowerCase() === image.sha256.toLowerCase();
  const Icon = isVerified ? ShieldCheck : ShieldAlert;
  return (
    <span className={`chip ${isVerified ? 'chip--success' : 'chip--error'}`}>
      <Icon aria-hidden="true" size={14} />
      {isVerified ? 'Verified: matches the server' : 'Mismatch: differs from the server'}
    </span>
  );
}

/** Which of the shots this offence needs each photo covers, and which are missing. */
export function ChecklistCoverage({ pcn }: { pcn: Pcn }) {
  const coverage = checklistCoverage(
    pcn.offenceType,
    pcn.images.map((image) => ({ shots: image.shots ?? [] })),
  );
  const coveredCount = coverage.items.length - coverage.missing.length;
  const isNothingMarked = pcn.images.every((image) => !image.shots?.length);
  return (
    <Card title="Photo checklist" titleId="review-checklist-title">
      <p className="card__intro">
        {OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType}:{' '}
        <strong>
          {coverage.isComplete ? `all ${coverage.items.length} shots covered` : `${coveredCount} of ${coverage.items.length} shots covered`}
        </strong>
      </p>
      <ul className="coverage-list">
        {coverage.items.map((item) => (
          <li key={item.id} className={item.covered ? 'coverage-list__item' : 'coverage-list__item coverage-list__item--missing'}>
            {item.covered ? (
              <CircleCheck aria-hidden="true" size={18} className="status-icon--success" />
            ) : (
              <CircleX aria-hidden="true" size={18} className="status-icon--error" />
            )}
            <span className="coverage-list__label">{item.label}</span>
            <span className="coverage-list__photos">{item.covered ? item.photoIndexes.map(photoName).join(', ') : 'Missing'}</span>
          </li>
        ))}
      </ul>
      {isNothingMarked && pcn.images.length > 0 ? (
        <p className="muted">
          No photo was marked with the shots it shows (sent before the checklist, or left unmarked); check the photos themselves.
        </p>
      ) : null}
    </Card>
  );
}
