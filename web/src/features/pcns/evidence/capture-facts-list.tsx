import type { ReactNode } from 'react';
import { MapPin, ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react';
import { OFFENCE_PHOTO_CHECKLIST, type OffenceType, type PcnImage } from '@parkpatrol/shared';
import type { ClockFormat } from './evidence-format.ts';
import { describeCaptureFacts, type HashCheck } from './capture-facts.ts';
import './evidence.css';

export type CaptureFactsListProps = {
  images: readonly PcnImage[];
  /** Names each photo's checklist shots in words when given. */
  offenceType?: OffenceType;
  format?: ClockFormat;
  /** The photo itself, shown beside its facts (the detail page); none when it was purged. */
  renderPhoto?: (image: PcnImage, index: number) => ReactNode;
};

const HASH_ICONS: Record<HashCheck, typeof ShieldCheck> = { verified: ShieldCheck, mismatch: ShieldAlert, 'not-sent': ShieldQuestion };
const HASH_CHIPS: Record<HashCheck, string> = { verified: 'chip--success', mismatch: 'chip--error', 'not-sent': 'chip--warning' };

/**
 * What each photo proves, for the officer's detail page: when it was taken and how that is
 * known, where, and its checksum. Text only: nothing is loaded from another origin.
 */
export function CaptureFactsList({ images, offenceType, format, renderPhoto }: CaptureFactsListProps) {
  if (images.length === 0) return null;
  const labels = new Map<string, string>(offenceType ? OFFENCE_PHOTO_CHECKLIST[offenceType].map((item) => [item.id, item.label]) : []);
  return (
    <ol className="capture-facts" aria-label="Capture facts of each photo">
      {images.map((image, index) => {
        const facts = describeCaptureFacts(image, format);
        const HashIcon = HASH_ICONS[facts.hashCheck];
        return (
          <li key={image.id} className="capture-facts__photo">
            {renderPhoto?.(image, index)}
            <div className="capture-facts__body">
              <h3 className="capture-facts__title">{`Photo ${index + 1}`}</h3>
              <dl className="capture-facts__list">
                <div>
                  <dt>Time</dt>
                  <dd>{facts.taken}</dd>
                </div>
                <div>
                  <dt>Position</dt>
                  <dd>
                    {facts.hasPosition ? <MapPin aria-hidden="true" size={16} /> : null}
                    {facts.position}
                  </dd>
                </div>
                {image.shots && image.shots.length > 0 ? (
                  <div>
                    <dt>Shows</dt>
                    <dd>{image.shots.map((id) => labels.get(id) ?? id).join(', ')}</dd>
                  </div>
                ) : null}
                <div>
                  <dt>SHA-256</dt>
                  <dd>
                    <code
                      className="capture-facts__hash"
                      aria-label={`SHA-256 starting ${facts.sha256.slice(0, 8)} and ending ${facts.sha256.slice(-8)}`}
                    >
                      {facts.shortSha256}
                    </code>{' '}
                    <span className={`chip ${HASH_CHIPS[facts.hashCheck]}`}>
                      <HashIcon aria-hidden="true" size={14} />
                      {facts.hashCheckText}
                    </span>
                    <details className="capture-facts__full">
                      <summary>Full checksum</summary>
                      <code className="capture-facts__hash">{facts.sha256}</code>
                    </details>
                  </dd>
                </div>
              </dl>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
