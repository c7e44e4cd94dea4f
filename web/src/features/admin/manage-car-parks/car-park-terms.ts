import { formatPence, JURISDICTION_LABELS, type CarPark, type Jurisdiction } from '@parkpatrol/shared';

/**
 * A car park's terms as Manage Car Parks shows them: the list's columns and its terms' history
 * read the same words for the same values.
 */

const yesNo = (value: unknown) => (value ? 'Yes' : 'No');
const minutes = (value: unknown) => `${String(value)} min`;
const pounds = (value: unknown) => (typeof value === 'number' ? formatPence(value) : 'none');

/** Each stored field of a car park's terms: its name in the history, and its value as read there. */
const TERMS_FIELDS: Record<string, { label: string; shown: (value: unknown) => string }> = {
  chargePence: { label: 'Charge', shown: pounds },
  reducedChargePence: { label: 'Reduced charge', shown: pounds },
  reducedWithinDays: { label: 'Reduced if paid within', shown: (value) => (value === null ? 'none' : `${String(value)} days`) },
  signageTerms: { label: 'Signage terms', shown: (value) => (value ? `“${String(value)}”` : 'none') },
  jurisdiction: { label: 'Where the land is', shown: (value) => JURISDICTION_LABELS[value as Jurisdiction] ?? String(value) },
  relevantLand: { label: 'Relevant land under Schedule 4', shown: yesNo },
  considerationMinutes: { label: 'Consideration period', shown: minutes },
  graceMinutes: { label: 'Grace period', shown: minutes },
  stayAppliesByDefault: { label: 'A stay applies by default', shown: yesNo },
  minimumsOverrideReason: { label: 'Reason for shorter periods', shown: (value) => (value ? String(value) : 'none') },
};

export const termsFieldLabel = (field: string): string => TERMS_FIELDS[field]?.label ?? field;

export const shownTermsValue = (field: string, value: unknown): string =>
  TERMS_FIELDS[field]?.shown(value) ?? (value === null ? 'none' : String(value));

/** The charge column: the amount, then the prompt-payment discount on its own line. */
export function chargeLines(carPark: Pick<CarPark, 'chargePence' | 'reducedChargePence' | 'reducedWithinDays'>): [string, string] {
  if (carPark.chargePence === null) return ['No charge set', 'Notices cannot be printed until it is set'];
  const discount =
    carPark.reducedChargePence === null || carPark.reducedWithinDays === null
      ? 'No reduced amount'
      : `${formatPence(carPark.reducedChargePence)} if paid within ${carPark.reducedWithinDays} days`;
  return [formatPence(carPark.chargePence), discount];
}
