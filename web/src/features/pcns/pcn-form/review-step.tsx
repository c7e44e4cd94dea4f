import type { RefObject } from 'react';
import {
  draftFirstSeenAt,
  NOTICE_SERVED_BY_OPTIONS,
  NOTICE_SERVED_LEGEND,
  normaliseRegistration,
  OFFENCE_TYPE_LABELS,
  type NoticeServedBy,
  type OffenceType,
  type OperatorTerms,
} from '@parkpatrol/shared';
import { Button } from '../../../lib/button.tsx';
import { RadioField } from '../../../lib/radio-field.tsx';
import { DateField } from '../../../lib/date-field.tsx';
import { instantFromUkWallClock, ukWallClockInput } from '../../../lib/format-date.ts';
import type { DraftErrors, PcnDraft } from '../pcn-draft.ts';
import { BlobThumbnail, UrlThumbnail } from './photo-thumbnail.tsx';
import type { CarParkOption } from './wizard-types.ts';
import { isServedToDriver, noticeFromDraft } from '../notice-to-driver/notice-facts.ts';
import { PrintNoticeButton } from '../notice-to-driver/print-notice-button.tsx';

type Props = {
  draft: PcnDraft;
  carParks: CarParkOption[];
  onEditStep: (step: number) => void;
  errors: DraftErrors;
  servedByRef: RefObject<HTMLElement | null>;
  onServed: (servedBy: NoticeServedBy) => void;
  firstSeenRef: RefObject<HTMLElement | null>;
  /** The officer's correction of first seen (ISO), or null to follow the default again. */
  onFirstSeen: (firstSeenAt: string | null) => void;
  /** The operator's terms kept on the phone, for printing the notice to driver. */
  noticeTerms: OperatorTerms | null;
};

/**
 * Everything that will be sent, photos included, with a way back to each step, and how the
 * notice to driver was served: one tap, which decides the route to keeper liability.
 */
export function ReviewStep({ draft, carParks, onEditStep, errors, servedByRef, onServed, firstSeenRef, onFirstSeen, noticeTerms }: Props) {
  const carPark = carParks.find((option) => option.id === draft.carParkId);
  const carParkName = carPark?.name ?? '';
  const offence = OFFENCE_TYPE_LABELS[draft.offenceType as OffenceType] ?? draft.offenceType;
  const rows: Array<{ label: string; value: string; step: number }> = [
    { label: 'Vehicle registration', value: normaliseRegistration(draft.vehicleRegistration), step: 0 },
    { label: 'Car park', value: carParkName, step: 0 },
    { label: 'Offence type', value: offence, step: 1 },
    { label: 'Location', value: draft.location.trim(), step: 1 },
    { label: 'Description', value: draft.description.trim() || '—', step: 1 },
  ];
  return (
    <>
      <dl className="review-list">
        {rows.map((row) => (
          <div key={row.label}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
      {/* Above the photos, where a phone shows it without scrolling: the tap is made as the notice is served. */}
      <RadioField
        label={NOTICE_SERVED_LEGEND}
        options={NOTICE_SERVED_BY_OPTIONS}
        value={draft.noticeServedBy ?? null}
        onChange={(value) => onServed(value as NoticeServedBy)}
        errorMessage={errors.noticeServedBy}
        isRequired
        inputRef={servedByRef as RefObject<HTMLInputElement>}
      />
      {/* The period of parking every document prints starts here: the officer may correct it, never past the service. */}
      <FirstSeenField draft={draft} errorMessage={errors.firstSeenAt} inputRef={firstSeenRef} onFirstSeen={onFirstSeen} />
      {/* A new notice is printed as it is served; a sent one prints from its detail. */}
      {draft.pcnId === null && isServedToDriver(draft.noticeServedBy) ? (
        <PrintNoticeButton notice={() => noticeFromDraft(draft, carPark, noticeTerms)} />
      ) : null}
      <h3>{`Photos (${draft.existingImages.length + draft.photos.length})`}</h3>
      <ul className="previews" aria-label="Photos to submit">
        {draft.existingImages.map((image, index) => (
          <li key={image.id} className="preview">
            <UrlThumbnail url={image.url} alt={`Photo ${index + 1}`} />
          </li>
        ))}
        {draft.photos.map((photo, index) => (
          <li key={photo.id} className="preview">
            <BlobThumbnail blob={photo.blob} alt={`Photo ${draft.existingImages.length + index + 1}: ${photo.name}`} />
          </li>
        ))}
      </ul>
      <div className="button-row">
        <Button variant="text" onPress={() => onEditStep(0)}>
          Change vehicle details
        </Button>
        <Button variant="text" onPress={() => onEditStep(1)}>
          Change offence information
        </Button>
        <Button variant="text" onPress={() => onEditStep(2)}>
          Change photos
        </Button>
      </div>
    </>
  );
}

/**
 * First seen as the officer types it, on the UK clock (dd/mm/yyyy hh:mm) whatever the phone is
 * set to: the notice prints UK time. Only a whole date and time is saved; left half-typed, the
 * field says so and the time still saved stands. Left empty, it follows the default again.
 */
function FirstSeenField({
  draft,
  errorMessage,
  inputRef,
  onFirstSeen,
}: {
  draft: PcnDraft;
  errorMessage: string | undefined;
  inputRef: RefObject<HTMLElement | null>;
  onFirstSeen: (firstSeenAt: string | null) => void;
}) {
  return (
    <DateField
      withTime
      label="Vehicle first seen"
      name="firstSeenAt"
      description="The start of the period of parking printed on the notice: the first sighting, else when you began this notice. Never after the time of service."
      value={ukWallClockInput(draftFirstSeenAt(draft))}
      onChange={(value) => {
        const at = instantFromUkWallClock(value);
        if (at) onFirstSeen(at);
      }}
      onBlur={(event) => {
        if (event.currentTarget.value.trim() === '') onFirstSeen(null);
      }}
      errorMessage={errorMessage}
      inputRef={inputRef as RefObject<HTMLInputElement>}
    />
  );
}
