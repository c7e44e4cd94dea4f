import type { RefObject } from 'react';
import { OFFENCE_TYPES, OFFENCE_TYPE_LABELS } from '@parkpatrol/shared';
import { RadioField } from '../../../lib/radio-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import type { DraftErrors, PcnDraft, PcnDraftFields } from '../pcn-draft.ts';
import type { FieldRefs } from './wizard-types.ts';

const OFFENCE_OPTIONS = OFFENCE_TYPES.map((type) => ({ id: type, label: OFFENCE_TYPE_LABELS[type] }));

type Props = {
  /** The officer's last few locations at this car park: one tap each. */
  recentLocations?: readonly string[];
  draft: PcnDraft;
  errors: DraftErrors;
  fieldRefs: FieldRefs;
  onChange: (patch: Partial<PcnDraftFields>) => void;
};

type InputRef = RefObject<HTMLInputElement & HTMLTextAreaElement>;

export function OffenceStep({ draft, errors, fieldRefs, onChange, recentLocations = [] }: Props) {
  return (
    <>
      <RadioField
        label="Offence type"
        options={OFFENCE_OPTIONS}
        value={draft.offenceType || null}
        onChange={(value) => onChange({ offenceType: value })}
        errorMessage={errors.offenceType}
        inputRef={fieldRefs.offenceType as RefObject<HTMLInputElement>}
        isRequired
      />
      <TextField
        label="Location"
        description="Where in the car park, e.g. Level 2, bay 14"
        value={draft.location}
        onChange={(value) => onChange({ location: value })}
        errorMessage={errors.location}
        inputRef={fieldRefs.location as InputRef}
        isRequired
      />
      {recentLocations.length > 0 ? (
        <div className="recent-locations" role="group" aria-label="Recent places at this car park">
          <span className="muted">Recent here:</span>
          {recentLocations.map((location) => (
            <button
              key={location}
              type="button"
              className="chip-button"
              aria-pressed={draft.location === location}
              onClick={() => onChange({ location })}
            >
              {location}
            </button>
          ))}
        </div>
      ) : null}
      <TextField
        label="Description"
        description="Optional: anything that helps the review"
        value={draft.description}
        onChange={(value) => onChange({ description: value })}
        errorMessage={errors.description}
        inputRef={fieldRefs.description as InputRef}
        isMultiline
      />
    </>
  );
}
