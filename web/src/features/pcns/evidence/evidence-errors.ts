import { duplicateReasonProblem } from './duplicate-rules.ts';
import type { ClockFormat } from './evidence-format.ts';
import { observationEntryProblem, observationProblem, type ObservationCarPark } from './observation-rules.ts';
import { checklistProblem } from './photo-checklist-rules.ts';

/** The draft fields the evidence rules read (the form's PcnDraft once it gains them). */
export type EvidenceDraft = {
  offenceType: string;
  observedAt?: string | null;
  stayApplies?: boolean | null;
  duplicateReason?: string | null;
  /** OTHER only: the officer ticked "Continue without: ...". */
  checklistWaived?: boolean;
  /** Set when the draft edits a PCN already on the server. */
  pcnId?: string | null;
  photos: ReadonlyArray<{ shots?: readonly string[] }>;
  existingImages?: ReadonlyArray<{ shots?: readonly string[] }>;
};

/**
 * Keyed like the form's DraftErrors, so PCN_FIELD_STEPS puts each on its step: duplicateReason,
 * observedAt and issuedAt on the vehicle step (0), where the observation sits under the car park;
 * images on the evidence step (2).
 */
export type EvidenceErrors = Partial<Record<'duplicateReason' | 'observedAt' | 'issuedAt' | 'images', string>>;

/**
 * Every evidence problem of a draft. `isSubmit` adds the waiting period (issuedAt is "now" when
 * Submit is pressed); before that the officer may move on and take the photos while it runs.
 * The checklist binds new notices only: on an edit the shots of photos already sent cannot be
 * changed through the API, and a notice filed before the checklist must stay editable.
 */
export function validateEvidence(
  draft: EvidenceDraft,
  context: {
    carPark: ObservationCarPark | null | undefined;
    duplicates: readonly unknown[];
    now: Date | number;
    isSubmit: boolean;
    format?: ClockFormat;
  },
): EvidenceErrors {
  const errors: EvidenceErrors = {};
  const fields = { observedAt: draft.observedAt, stayApplies: draft.stayApplies };
  const duplicate = duplicateReasonProblem(context.duplicates, draft.duplicateReason);
  if (duplicate) errors.duplicateReason = duplicate;
  const entry = observationEntryProblem(fields, context.carPark, context.now);
  if (entry) errors.observedAt = entry;
  else if (context.isSubmit) {
    const wait = observationProblem(fields, context.carPark, context.now, context.format);
    if (wait) errors.issuedAt = wait;
  }
  if (!draft.pcnId) {
    const photos = [...(draft.existingImages ?? []), ...draft.photos].map((photo) => ({ shots: photo.shots ?? [] }));
    const checklist = checklistProblem(draft.offenceType, photos, { continueWithoutMissing: draft.checklistWaived });
    if (checklist) errors.images = checklist;
  }
  return errors;
}
