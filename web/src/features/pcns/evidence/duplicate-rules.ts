import {
  DUPLICATE_REASON_MAX_LENGTH,
  parkingEventDay,
  pcnTitle,
  PCN_STATUS_LABELS,
  registrationSchema,
  VALIDATION_MESSAGES,
  type PcnDuplicateMatch,
  type PcnDuplicatesQuery,
} from '@parkpatrol/shared';

/**
 * The officer's side of duplicates: one charge per parking event. The warning never blocks
 * a notice by itself (decision 0006); once shown, a reason is required before Next.
 */

/**
 * The GET /pcns/duplicates query for what the officer has typed, or null while the registration
 * or car park is not valid yet. The day is the parking event's UTC day, as the server counts it:
 * the first sighting's when recorded, else today's.
 */
export function duplicateQuery(
  input: { vehicleRegistration: string; carParkId: string; observedAt?: string | null },
  now: Date,
): PcnDuplicatesQuery | null {
  const registration = registrationSchema.safeParse(input.vehicleRegistration);
  const carParkId = input.carParkId.trim();
  if (!registration.success || carParkId === '') return null;
  const observedAt = input.observedAt && !Number.isNaN(Date.parse(input.observedAt)) ? input.observedAt : null;
  return { vehicleRegistration: registration.data, carParkId, date: parkingEventDay({ observedAt, createdAt: now.toISOString() }) };
}

/** A stable key for a query, so the same question is asked once. */
export function duplicateQueryKey(query: PcnDuplicatesQuery | null): string | null {
  return query ? `${query.vehicleRegistration}|${query.carParkId}|${query.date}` : null;
}

/** 'PCN-00000042 (Submitted) was already issued for this vehicle at this car park today.' */
export function duplicateMatchText(match: Pick<PcnDuplicateMatch, 'pcnNumber' | 'status'>, day: 'today' | string = 'today'): string {
  const when = day === 'today' ? 'today' : `on ${day}`;
  return `${pcnTitle(match.pcnNumber)} (${PCN_STATUS_LABELS[match.status]}) was already issued for this vehicle at this car park ${when}.`;
}

export const ONE_CHARGE_TEXT = 'One charge per parking event.';

/** The whole warning as one text, e.g. for a summary or a test. */
export function duplicateWarningText(
  matches: ReadonlyArray<Pick<PcnDuplicateMatch, 'pcnNumber' | 'status'>>,
  day: 'today' | string = 'today',
): string {
  return [...matches.map((match) => duplicateMatchText(match, day)), ONE_CHARGE_TEXT].join(' ');
}

/** For the vehicle step's Next: a shown warning needs a reason; none shown needs nothing. */
export function duplicateReasonProblem(duplicates: readonly unknown[], reason: string | null | undefined): string | null {
  const text = reason?.trim() ?? '';
  if (text.length > DUPLICATE_REASON_MAX_LENGTH) return VALIDATION_MESSAGES.duplicateReasonTooLong;
  if (duplicates.length > 0 && text === '') return VALIDATION_MESSAGES.duplicateReasonRequired;
  return null;
}
