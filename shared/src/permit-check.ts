import { normaliseRegistration } from './format.ts';
import { addDays, endOfUkDay, formatCalendarDate, ukDate, type CalendarDate } from './keeper-liability.ts';
import { PERMIT_KIND_LABELS, type PermitKind, type PermitSource } from './permits.ts';

/**
 * A car park's permit register, and the check an officer's phone and the server both make: does
 * this registration hold a permit valid now at this car park? The phone answers from its own copy
 * (kept by the sync) before any photo is taken; the server answers again when the notice is filed.
 * Both use `findValidPermit` and the same words, so the officer reads on the phone what the
 * outbox would show if the server refused the notice.
 */

/** A permit as the admin and landowner screens show it. */
export type Permit = {
  id: string;
  carParkId: string;
  vehicleRegistration: string;
  kind: PermitKind;
  /** ISO instant it starts. */
  validFrom: string;
  /** ISO instant it ends (inclusive: the last millisecond of its last day); null: open-ended. */
  validUntil: string | null;
  note: string;
  source: PermitSource;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
  /** When it was ended early (DELETE keeps the row and its history); null while not ended. */
  endedAt: string | null;
  endedByName: string | null;
};

export type PermitChange = { actorName: string; createdAt: string; changes: Record<string, unknown> };

export type PermitListResponse = { permits: Permit[] };

/**
 * What an officer's phone keeps of a permit: what the check needs and nothing else. The note
 * (often a flat number or a name) and who added it stay on the server.
 */
export type PhonePermit = Pick<Permit, 'id' | 'carParkId' | 'vehicleRegistration' | 'kind' | 'validFrom' | 'validUntil' | 'endedAt'>;

/**
 * GET /permits/sync: the permits of the officer's car parks. Without `since`, every permit in
 * force or to come (`full`); with it, every permit changed since (ended ones too, so the phone
 * drops them). `syncedAt` is what to send as `since` next time; `carParkIds` are the car parks
 * the answer covers (a car park no longer listed takes its permits off the phone).
 */
export type PermitSyncResponse = { permits: PhonePermit[]; carParkIds: string[]; syncedAt: string; full: boolean };

/** What a notice records of the permit check the server made when it was filed (the evidence pack prints it). */
export type PermitCheckRecord = {
  checkedAt: string;
  carParkId: string;
  /** The car park's register as it stood: how many permits were in force, and its last change. */
  permitsInForce: number;
  listChangedAt: string | null;
  /** The permit that matched, if any. */
  matched: Pick<Permit, 'id' | 'kind' | 'vehicleRegistration' | 'validFrom' | 'validUntil'> | null;
  overrideReason: string | null;
};

/** The CSV import's answer, row by row like the keeper replies: nothing applied without a line saying so. */
export const PERMIT_IMPORT_OUTCOMES = ['ADDED', 'UNCHANGED', 'INVALID'] as const;
export type PermitImportOutcome = (typeof PERMIT_IMPORT_OUTCOMES)[number];
export type PermitImportResult = {
  row: number;
  registration: string;
  outcome: PermitImportOutcome;
  message: string;
  permitId: string | null;
};
export type PermitImport = { results: PermitImportResult[]; counts: Record<PermitImportOutcome, number> };
export const PERMIT_IMPORT_OUTCOME_LABELS: Record<PermitImportOutcome, string> = {
  ADDED: 'Added',
  UNCHANGED: 'Already there',
  INVALID: 'Not added',
};

/** The import's columns: registration and kind needed; dates as 2026-12-31 or 31/12/2026. */
export const PERMIT_IMPORT_COLUMNS = ['registration', 'kind', 'valid_from', 'valid_until', 'note'] as const;
export const PERMIT_IMPORT_MAX_ROWS = 2000;
export const PERMIT_NOTE_MAX_LENGTH = 500;
export const PERMIT_OVERRIDE_REASON_MAX_LENGTH = 500;

type Validity = Pick<Permit, 'validFrom' | 'validUntil' | 'endedAt'>;

/** In force at `at`: started, not past its last day, not ended early. */
export function isPermitValidAt(permit: Validity, at: Date | string): boolean {
  const time = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (Date.parse(permit.validFrom) > time) return false;
  if (permit.validUntil !== null && Date.parse(permit.validUntil) < time) return false;
  return permit.endedAt === null || Date.parse(permit.endedAt) > time;
}

/** Over for good: ended early, or its last day has passed. A phone drops such a permit. */
export function isPermitOver(permit: Validity, at: Date | string): boolean {
  const time = typeof at === 'string' ? Date.parse(at) : at.getTime();
  return (
    (permit.endedAt !== null && Date.parse(permit.endedAt) <= time) || (permit.validUntil !== null && Date.parse(permit.validUntil) < time)
  );
}

/**
 * The permit this registration holds at this car park at `at`, however the registration was
 * typed ('ab12 cde' is AB12CDE, as the officer's form stores it). The one ending last wins when
 * there are several, an open-ended one before all.
 */
export function findValidPermit<P extends PhonePermit>(
  permits: readonly P[],
  query: { carParkId: string; vehicleRegistration: string; at: Date | string },
): P | null {
  const registration = normaliseRegistration(query.vehicleRegistration);
  if (!registration) return null;
  const valid = permits.filter(
    (permit) =>
      permit.carParkId === query.carParkId &&
      normaliseRegistration(permit.vehicleRegistration) === registration &&
      isPermitValidAt(permit, query.at),
  );
  valid.sort((a, b) => endsAt(b) - endsAt(a));
  return valid[0] ?? null;
}

function endsAt(permit: Pick<Permit, 'validUntil'>): number {
  return permit.validUntil === null ? Number.POSITIVE_INFINITY : Date.parse(permit.validUntil);
}

/** A date for a permit's start: the first moment of that UK day. */
export function permitStartOfDay(date: CalendarDate): string {
  return new Date(Date.parse(endOfUkDay(addDays(date, -1))) + 1).toISOString();
}

/** A date for a permit's end: the last moment of that UK day (the permit holds all that day). */
export function permitEndOfDay(date: CalendarDate): string {
  return endOfUkDay(date);
}

export const PERMIT_TEXTS = {
  overrideLabel: 'Reason to issue despite the permit',
  overrideHelp: 'For example: parked outside the permitted bays. The reason goes into the evidence pack.',
  overrideRequired: 'Give a reason to issue despite the permit, or do not issue',
  overrideTooLong: `The reason must be at most ${PERMIT_OVERRIDE_REASON_MAX_LENGTH} characters`,
  checkedAgainst: (count: number, syncedAt: string | null) =>
    `Checked against ${count === 1 ? '1 permit' : `${count} permits`} on this phone${syncedAt ? `, updated ${formatPermitDay(syncedAt)}` : ''}.`,
  noPermitsYet: 'No permit list on this phone yet: it arrives with signal.',
} as const;

/** '31 Dec 2026', the UK day of an instant. */
export function formatPermitDay(instant: string): string {
  return formatCalendarDate(ukDate(instant));
}

/**
 * The warning on the vehicle step and the server's refusal at filing, in the same words:
 * 'Staff permit, valid until 31 Dec 2026: do not issue'.
 */
export function permitWarning(permit: Pick<Permit, 'kind' | 'validUntil'>): string {
  const kind = PERMIT_KIND_LABELS[permit.kind];
  const until = permit.validUntil === null ? 'with no end date' : `valid until ${formatPermitDay(permit.validUntil)}`;
  return `${kind} permit, ${until}: do not issue`;
}

/** The evidence pack's lines for the check the server made at filing. */
export function permitCheckLines(check: PermitCheckRecord, formatInstant: (iso: string) => string): string[] {
  const lines = [
    `Checked ${formatInstant(check.checkedAt)} against the car park's permit list (${check.permitsInForce === 1 ? '1 permit' : `${check.permitsInForce} permits`} in force${check.listChangedAt ? `, last changed ${formatInstant(check.listChangedAt)}` : ''}).`,
  ];
  if (check.matched) {
    lines.push(`The registration held a permit: ${permitWarning(check.matched)} (permit ${check.matched.id}).`);
    lines.push(`Officer's reason for issuing anyway: ${check.overrideReason ?? '(none)'}`);
  } else {
    lines.push('The registration held no permit valid at the time.');
  }
  return lines;
}

/**
 * The vehicle step's rule: a registration holding a permit here goes on only with the officer's
 * reason (the server refuses it at filing without one). `isHeld`: the phone's list found a permit,
 * or the server refused the notice for one. Null when nothing is missing.
 */
export function permitOverrideProblem(isHeld: boolean, reason: string | null | undefined): string | null {
  if (!isHeld) return null;
  if (!reason?.trim()) return PERMIT_TEXTS.overrideRequired;
  if (reason.trim().length > PERMIT_OVERRIDE_REASON_MAX_LENGTH) return PERMIT_TEXTS.overrideTooLong;
  return null;
}
