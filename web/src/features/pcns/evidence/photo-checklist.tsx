import { useId, type ReactNode } from 'react';
import { CircleCheck, CircleX, ImageOff } from 'lucide-react';
import { checklistCoverage, OFFENCE_PHOTO_CHECKLIST, OFFENCE_TYPE_LABELS } from '@parkpatrol/shared';
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
  /** The draft's offence type; nothing shows until a known one is chosen. */
  offenceType: string;
  /** Every photo of the notice in upload order (existing ones first on an edit). */
  photos: readonly ChecklistPhoto[];
  onChangeShots: (photoId: string, shots: string[]) => void;
  /** OTHER only: the officer's explicit "Continue without: ..." (keep it in the draft). */
  continueWithoutMissing?: boolean;
  onChangeContinueWithoutMissing?: (isSelected: boolean) => void;
  /** checklistProblem's message after a refused Next. */
  errorMessage?: string | null;
};

/** A native checkbox, drawn large enough to tap with a gloved thumb (evidence.css). */
function ShotCheckbox({ isSelected, onChange, isDisabled, children }: { isSelected: boolean; onChange: (isSelected: boolean) => void; isDisabled?: boolean; children: ReactNode }) {
  return (
    <label className="shot-checkbox">
      <input type="checkbox" className="shot-checkbox__input" checked={isSelected} disabled={isDisabled} onChange={(event) => onChange(event.target.checked)} />
      {children}
    </label>
  );
}

/**
 * The shots the chosen offence needs, which photo covers each (in words, not only colour), and
 * per photo a group of checkboxes to say what it shows.
 */
export function PhotoChecklist({ offenceType, photos, onChangeShots, continueWithoutMissing = false, onChangeContinueWithoutMissing, errorMessage }: PhotoChecklistProps) {
  const headingId = useId();
  const errorId = useId();
  if (!isOffenceType(offenceType)) return null;
  const items = OFFENCE_PHOTO_CHECKLIST[offenceType];
  const coverage = checklistCoverage(offenceType, photos);
  const showEscape = canContinueWithoutShots(offenceType) && !coverage.isComplete && onChangeContinueWithoutMissing;

  return (
    <section className="checklist" aria-labelledby={headingId}>
      <h3 id={headingId} className="checklist__title">
        Photo checklist
      </h3>
      <p>{`${OFFENCE_TYPE_LABELS[offenceType]} needs these shots. Mark what each photo shows; one photo may show several.`}</p>

      <ul className="checklist__items" aria-label="Shots needed">
        {coverage.items.map((item) => (
          <li key={item.id} className={`checklist__item${item.covered ? '' : ' checklist__item--missing'}`}>
            {item.covered ? (
              <CircleCheck aria-hidden="true" size={20} className="status-icon--success" />
            ) : (
              <CircleX aria-hidden="true" size={20} className="status-icon--error" />
            )}
            <div>
              <p className="checklist__label">
                {item.label}: <strong>{coverageText(item)}</strong>
              </p>
              <p className="muted">{item.hint}</p>
            </div>
          </li>
        ))}
      </ul>
      {/* Polite: it changes only when the officer ticks or unticks a shot. */}
      <p className="checklist__summary" aria-live="polite">
        {coverageSummary(coverage)}
      </p>

      {photos.length === 0 ? (
        <p className="muted">Add photos above, then mark what each one shows.</p>
      ) : (
        <ul className="checklist__photos" aria-label="What each photo shows">
          {photos.map((photo, index) => {
            const label = `Photo ${index + 1} shows`;
            return (
              <li key={photo.id} className="checklist__photo">
                {photo.previewUrl ? (
                  <img src={photo.previewUrl} alt={`Photo ${index + 1}: ${photo.name}`} className="checklist__thumb" />
                ) : (
                  <span className="checklist__thumb checklist__thumb--empty" role="img" aria-label={`Photo ${index + 1}: ${photo.name}, no preview`}>
                    <ImageOff aria-hidden="true" size={24} />
                  </span>
                )}
                <fieldset className="checklist__shots" disabled={photo.isReadOnly}>
                  <legend className="field__label">{label}</legend>
                  {items.map((item) => (
                    <ShotCheckbox
                      key={item.id}
                      isSelected={photo.shots.includes(item.id)}
                      onChange={(isSelected) => onChangeShots(photo.id, toggleShot(photo.shots, item.id, isSelected))}
                    >
                      {item.label}
                    </ShotCheckbox>
                  ))}
                  {photo.isReadOnly ? <p className="muted">Already sent: what it shows cannot be changed.</p> : null}
                </fieldset>
              </li>
            );
          })}
        </ul>
      )}

      {showEscape ? (
        <label className="shot-checkbox checklist__escape">
          <input type="checkbox" className="shot-checkbox__input" checked={continueWithoutMissing} onChange={(event) => onChangeContinueWithoutMissing(event.target.checked)} />
          {continueWithoutLabel(coverage)}
        </label>
      ) : null}

      {errorMessage ? (
        <p id={errorId} className="field__error" role="alert">
          {errorMessage}
        </p>
      ) : null}
    </section>
  );
}
