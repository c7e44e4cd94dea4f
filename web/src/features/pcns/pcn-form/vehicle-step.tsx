import type { RefObject } from 'react';
import { Link } from 'react-router-dom';
import { SCREEN_TEXTS } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import type { DraftErrors, PcnDraft, PcnDraftFields } from '../pcn-draft.ts';
import type { CarParkOption, FieldRefs } from './wizard-types.ts';

type Props = {
  /** A new notice opens with the keyboard up on the registration. */
  autoFocusRegistration?: boolean;
  draft: PcnDraft;
  errors: DraftErrors;
  fieldRefs: FieldRefs;
  carParks: CarParkOption[];
  carParksError: string | undefined;
  isLoadingCarParks: boolean;
  onChange: (patch: Partial<PcnDraftFields>) => void;
};

export function VehicleStep({
  autoFocusRegistration = false,
  draft,
  errors,
  fieldRefs,
  carParks,
  carParksError,
  isLoadingCarParks,
  onChange,
}: Props) {
  return (
    <>
      <TextField
        label="Vehicle registration"
        description="As shown on the number plate, e.g. AB12 CDE"
        value={draft.vehicleRegistration}
        onChange={(value) => onChange({ vehicleRegistration: value.toUpperCase() })}
        errorMessage={errors.vehicleRegistration}
        inputRef={fieldRefs.vehicleRegistration as RefObject<HTMLInputElement & HTMLTextAreaElement>}
        autoComplete="off"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck="false"
        // A plate is one word of capitals: no autocorrect, the keyboard in capitals.
        autoFocus={autoFocusRegistration}
        isRequired
      />
      {carParksError ? <Alert>{carParksError}</Alert> : null}
      {!isLoadingCarParks && !carParksError && carParks.length === 0 ? (
        // Not an empty list: the officer learns why, and has a way out.
        <div className="field">
          <span className="field__label">Car park</span>
          <Alert tone="info">
            {SCREEN_TEXTS.noCarParksAssigned} <Link to={paths.dashboard}>{SCREEN_TEXTS.goToDashboard}</Link>
          </Alert>
        </div>
      ) : (
        <SelectField
          label="Car park"
          placeholder={isLoadingCarParks ? 'Loading...' : 'Choose a car park'}
          options={carParks.map((carPark) => ({ id: carPark.id, label: carPark.name }))}
          value={draft.carParkId || null}
          onChange={(value) => onChange({ carParkId: value ?? '' })}
          errorMessage={errors.carParkId}
          selectRef={fieldRefs.carParkId as RefObject<HTMLSelectElement>}
          isRequired
        />
      )}
    </>
  );
}
