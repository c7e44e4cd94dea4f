import { checklistCoverage, OFFENCE_TYPES, type ChecklistCoverage, type ChecklistCoverageItem, type OffenceType } from '@parkpatrol/shared';

/**
 * The photo checklist, the officer's side: the checklist makes the officer's four photos the right
 * four. Decision: a missing shot blocks Next on the evidence step with a message naming it, for
 * every offence. Only OTHER, whose checklist cannot know what the contravention looks like,
 * offers an explicit "Continue without: ..." the officer must tick; admins still see the gap on
 * the review screen (coverage is worked out from the shots sent).
 */

export type ChecklistPhoto = {
  id: string;
  name: string;
  /** Object URL or signed URL of the photo; null shows a placeholder. */
  previewUrl: string | null;
  shots: readonly string[];
  /** Photos already on the server (edit): their shots cannot be changed through the API. */
  isReadOnly?: boolean;
};

export function isOffenceType(value: string): value is OffenceType {
  return (OFFENCE_TYPES as readonly string[]).includes(value);
}

export function canContinueWithoutShots(offenceType: string): boolean {
  return offenceType === 'OTHER';
}

/** 'Signage', 'Signage and Bay markings', 'Signage, Bay markings and No blue badge'. */
export function listLabels(labels: readonly string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

const photoNumber = (index: number) => index + 1;

/** 'Photo 2', 'Photos 1 and 3', or 'Missing'. */
export function coverageText(item: Pick<ChecklistCoverageItem, 'covered' | 'photoIndexes'>): string {
  if (!item.covered) return 'Missing';
  const numbers = item.photoIndexes.map((index) => String(photoNumber(index)));
  return `${numbers.length === 1 ? 'Photo' : 'Photos'} ${listLabels(numbers)}`;
}

export function missingLabels(coverage: ChecklistCoverage): string[] {
  return coverage.items.filter((item) => !item.covered).map((item) => item.label);
}

/** '3 of 4 shots covered. Missing: Signage.' or 'All 4 shots covered.' */
export function coverageSummary(coverage: ChecklistCoverage): string {
  const total = coverage.items.length;
  if (coverage.isComplete) return `All ${total} shots covered.`;
  const covered = total - coverage.missing.length;
  return `${covered} of ${total} shots covered. Missing: ${listLabels(missingLabels(coverage))}.`;
}

/** The label of the OTHER escape hatch: 'Continue without: The contravention'. */
export function continueWithoutLabel(coverage: ChecklistCoverage): string {
  return `Continue without: ${listLabels(missingLabels(coverage))}`;
}

/**
 * For the evidence step's Next: null when every shot the offence needs is marked on some photo
 * (or, for OTHER only, the officer ticked "Continue without"); otherwise what is missing. An
 * unknown or unchosen offence is the offence step's problem, not this one's.
 */
export function checklistProblem(
  offenceType: string,
  photos: ReadonlyArray<{ shots: readonly string[] }>,
  options: { continueWithoutMissing?: boolean } = {},
): string | null {
  if (!isOffenceType(offenceType)) return null;
  const coverage = checklistCoverage(offenceType, photos);
  if (coverage.isComplete) return null;
  if (canContinueWithoutShots(offenceType) && options.continueWithoutMissing) return null;
  const missing = listLabels(missingLabels(coverage));
  const escape = canContinueWithoutShots(offenceType) ? ` If it cannot be taken, tick '${continueWithoutLabel(coverage)}'.` : '';
  return `Mark which photo shows each shot this offence needs. Missing: ${missing}. Take another photo if none of yours shows it.${escape}`;
}

/** A photo's shots after ticking (or unticking) one: each shot once, in the order ticked. */
export function toggleShot(shots: readonly string[], shot: string, isSelected: boolean): string[] {
  const others = shots.filter((each) => each !== shot);
  return isSelected ? [...others, shot] : others;
}
