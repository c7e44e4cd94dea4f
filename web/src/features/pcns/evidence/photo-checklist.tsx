import { useId, useState, type ChangeEvent } from 'react';
import { Camera, CircleCheck, CircleX, ImageOff, X } from 'lucide-react';
import { checklistCoverage, OFFENCE_PHOTO_CHECKLIST, OFFENCE_TYPE_LABELS, type PhotoChecklistItem } from '@parkpatrol/shared';
import {
  canContinueWithoutShots,
  continueWithoutLabel,
  coverageSummary,
  coverageText,
  isOffenceType,
  toggleShot,
  type ChecklistPhoto,
} from './photo-checklist-rules.ts';
import './evidence.css';

export type PhotoChecklistProps = {
  /** The draft's offence type; without a known one the photos show with no shots to mark. */
  offenceType: string;
  /** Every photo of the notice in upload order (existing ones first on an edit). */
  photos: readonly ChecklistPhoto[];
  /** A photo taken from a shot's row: it is stored already marked as showing that shot. */
  onTakeShot: (shot: string, files: File[]) => void;
  onChangeShots: (photoId: string, shots: string[]) => void;
  onRemovePhoto: (photo: ChecklistPhoto) => void;
  /** OTHER only: the officer's explicit "Continue without: ..." (keep it in the draft). */
  continueWithoutMissing?: boolean;
  onChangeContinueWithoutMissing?: (isSelected: boolean) => void;
};

/** The files a file input was given, and the input cleared so the same file can be chosen again. */
export function takeFiles(event: ChangeEvent<HTMLInputElement>): File[] {
  const files = Array.from(event.target.files ?? []);
  event.target.value = '';
  return files;
}

/**
 * Guided capture: one row per shot the offence needs, each with its own camera
 * button, so one tap takes the shot and marks it. Below, every photo once: its thumbnail, what it
 * shows (one tap per shot, for photos chosen from the gallery or showing more than one shot) and
 * its remove button.
 */
export function PhotoChecklist({
  offenceType,
  photos,
  onTakeShot,
  onChangeShots,
  onRemovePhoto,
  continueWithoutMissing = false,
  onChangeContinueWithoutMissing,
}: PhotoChecklistProps) {
  const headingId = useId();
  const items = isOffenceType(offenceType) ? OFFENCE_PHOTO_CHECKLIST[offenceType] : [];
  const coverage = isOffenceType(offenceType) ? checklistCoverage(offenceType, photos) : null;
  const showEscape = coverage && canContinueWithoutShots(offenceType) && !coverage.isComplete && onChangeContinueWithoutMissing;

  return (
    <>
      {coverage && isOffenceType(offenceType) ? (
        <section className="checklist" aria-labelledby={headingId}>
          <h3 id={headingId} className="checklist__title">
            Photo checklist
          </h3>
          <p>{`${OFFENCE_TYPE_LABELS[offenceType]} needs these shots. Take each one from its row; one photo may show several.`}</p>
          <ul className="shot-rows" aria-label="Shots needed">
            {coverage.items.map((item) => (
              <li key={item.id} className={`shot-row${item.covered ? ' shot-row--covered' : ''}`}>
                {item.covered ? (
                  <CircleCheck aria-hidden="true" size={22} className="shot-row__icon status-icon--success" />
                ) : (
                  <CircleX aria-hidden="true" size={22} className="shot-row__icon status-icon--error" />
                )}
                <div className="shot-row__text">
                  <p className="checklist__label">
                    {item.label}: <strong>{coverageText(item)}</strong>
                  </p>
                  {/* Once taken, the hint has done its job: the row shrinks to what it shows. */}
                  {item.covered ? null : <p className="muted">{item.hint}</p>}
                </div>
                {/* A native file input is the only way to open the camera on every phone browser. */}
                <label className={`button ${item.covered ? 'button--secondary' : 'button--primary'} file-button shot-row__take`}>
                  <Camera aria-hidden="true" size={20} />
                  <span>Take photo</span>
                  <input
                    type="file"
                    accept="image/*"
                    capture="environment"
                    aria-label={`Take photo: ${item.label}`}
                    onChange={(event) => {
                      const files = takeFiles(event);
                      if (files.length) onTakeShot(item.id, files);
                    }}
                  />
                </label>
              </li>
            ))}
          </ul>
          {/* Polite: it changes only when a photo is taken, marked or removed. */}
          <p className="checklist__summary" aria-live="polite">
            {coverageSummary(coverage)}
          </p>
        </section>
      ) : null}

      {photos.length > 0 ? (
        <ul className="previews previews--evidence" aria-label="Photos">
          {photos.map((photo, index) => {
            const number = index + 1;
            return (
              <li key={photo.id} className="preview preview--evidence">
                <div className="preview__image">
                  {photo.previewUrl ? (
                    <img src={photo.previewUrl} alt={`Photo ${number}: ${photo.name}`} width={150} height={150} />
                  ) : (
                    <span className="preview__placeholder" role="img" aria-label={`Photo ${number}: ${photo.name}, no preview`}>
                      <ImageOff aria-hidden="true" size={24} />
                    </span>
                  )}
                  <button
                    type="button"
                    className="preview__remove"
                    aria-label={photo.isReadOnly ? `Remove photo ${number}` : `Remove photo ${number}: ${photo.name}`}
                    onClick={() => onRemovePhoto(photo)}
                  >
                    <X aria-hidden="true" size={20} />
                  </button>
                </div>
                <div className="preview__body">
                  <p className="preview__title">{`Photo ${number}`}</p>
                  {items.length > 0 ? <PhotoShots photo={photo} number={number} items={items} onChangeShots={onChangeShots} /> : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}

      {showEscape ? (
        <label className="shot-checkbox checklist__escape">
          <input
            type="checkbox"
            className="shot-checkbox__input"
            checked={continueWithoutMissing}
            onChange={(event) => onChangeContinueWithoutMissing(event.target.checked)}
          />
          {continueWithoutLabel(coverage)}
        </label>
      ) : null}
    </>
  );
}

/**
 * What one photo shows: a line of text, and one tap per shot behind "Change" (open at once for a
 * photo that shows nothing yet, e.g. one chosen from the gallery).
 */
function PhotoShots({
  photo,
  number,
  items,
  onChangeShots,
}: {
  photo: ChecklistPhoto;
  number: number;
  items: readonly PhotoChecklistItem[];
  onChangeShots: (photoId: string, shots: string[]) => void;
}) {
  const [isOpen, setOpen] = useState(photo.shots.length === 0);
  const shown = items.filter((item) => photo.shots.includes(item.id)).map((item) => item.label);
  return (
    <>
      <p className="preview__shows">{shown.length > 0 ? `Shows: ${shown.join(', ')}` : 'Shows: not marked yet'}</p>
      <details className="preview__details" open={isOpen} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="preview__summary">
          {photo.isReadOnly ? 'Details' : 'Change'}
          <span className="visually-hidden">{` what photo ${number} shows`}</span>
        </summary>
        <fieldset className="preview__shots" disabled={photo.isReadOnly}>
          <legend className="visually-hidden">{`Photo ${number} shows`}</legend>
          {items.map((item) => (
            <label key={item.id} className="shot-chip">
              <input
                type="checkbox"
                className="shot-chip__input"
                checked={photo.shots.includes(item.id)}
                onChange={(event) => onChangeShots(photo.id, toggleShot(photo.shots, item.id, event.target.checked))}
              />
              <span>{item.label}</span>
            </label>
          ))}
          {photo.isReadOnly ? <p className="muted">Already sent: what it shows cannot be changed.</p> : null}
        </fieldset>
      </details>
    </>
  );
}
