import type { Jurisdiction } from './keeper-liability.ts';
import type { Role } from './roles.ts';

/**
 * The operator's terms, set once by an admin and printed on every notice: who the creditor is and
 * how to reach them, how to pay, and which independent appeals service hears a rejected appeal
 * (POPLA for BPA members, the IAS for IPC members). Per car park: the charge, the reduced amount
 * for prompt payment and the signage terms as shown on site. A notice keeps the terms in force
 * when it was issued (decision 0017).
 */
export const APPEALS_SERVICES = ['POPLA', 'IAS'] as const;
export type AppealsService = (typeof APPEALS_SERVICES)[number];

export const APPEALS_SERVICE_LABELS: Record<AppealsService, string> = {
  POPLA: 'POPLA (Parking on Private Land Appeals), for BPA members',
  IAS: 'The Independent Appeals Service (IAS), for IPC members',
};

/** The service's name as a notice says it. */
export const APPEALS_SERVICE_NAMES: Record<AppealsService, string> = {
  POPLA: 'POPLA (Parking on Private Land Appeals)',
  IAS: 'the Independent Appeals Service (IAS)',
};

export type OperatorTerms = {
  creditorName: string;
  /** Postal address, one line per line. */
  creditorAddress: string;
  creditorPhone: string;
  creditorEmail: string;
  creditorWebsite: string;
  /** How and to whom to pay, as the notice prints it. */
  howToPay: string;
  appealsService: AppealsService;
  /** The appeals service's contact details, one line per line. */
  appealsServiceContact: string;
  /** The chase after the notice to keeper (decision 0039): a reminder this many days after it is presumed given. */
  reminderAfterDays: number;
  /** Then a letter before claim this many days after the reminder is presumed given. */
  letterBeforeClaimAfterDays: number;
  /** The debt recovery charge the letters warn of, in pence; 0 for none. Never above the sector's cap. */
  debtRecoveryFeePence: number;
};

/** The chase's settings as an operator has them before choosing: also what terms saved before they existed read as. */
export const COLLECTION_SETTING_DEFAULTS = {
  reminderAfterDays: 28,
  letterBeforeClaimAfterDays: 14,
  debtRecoveryFeePence: 0,
} as const satisfies Partial<OperatorTerms>;

/**
 * The bounds of the chase's days. No reminder inside the notice to keeper's own 28 days (it gives
 * the keeper that long to pay or name the driver, Schedule 4 paragraphs 8(2)(f) and 9(2)(f)); the
 * reminder's 14 days are the shortest time to act a letter gives (the Single Code's discount
 * period, and the Pre-Action Protocol's notice before issuing after a reply).
 */
export const COLLECTION_DAY_BOUNDS = {
  reminderAfterDays: { min: 28, max: 180 },
  letterBeforeClaimAfterDays: { min: 14, max: 180 },
} as const;

/** Terms as stored (JSON): terms saved before the chase's settings existed read with their defaults. */
export function operatorTermsFromStored(
  stored: Partial<OperatorTerms> & Omit<OperatorTerms, keyof typeof COLLECTION_SETTING_DEFAULTS>,
): OperatorTerms {
  return { ...COLLECTION_SETTING_DEFAULTS, ...stored };
}

/**
 * The payment details: where every letter tells the motorist to send money (the bank account,
 * the payee, the card line). Changing them redirects every payment, so only a SUPER_ADMIN may;
 * an ADMIN keeps the rest of the terms, and sees these read-only. Every change is kept with its
 * old and new value and who made it (the terms' history).
 */
export const PAYMENT_DETAIL_FIELDS = ['howToPay'] as const satisfies ReadonlyArray<keyof OperatorTerms>;
export const PAYMENT_DETAILS_MESSAGE = 'Only a Super Admin can change how to pay: every letter prints it and every payment follows it';

export function mayChangePaymentDetails(role: Role | null | undefined): boolean {
  return role === 'SUPER_ADMIN';
}

/** GET/PUT /settings/operator: the terms now, and when and by whom they last changed. */
export type OperatorSettings = OperatorTerms & { updatedAt: string; updatedBy: string };

export type CarParkTerms = {
  /** The parking charge in pence; null until the admin sets it. */
  chargePence: number | null;
  /** The reduced amount for prompt payment in pence, or null when there is no discount. */
  reducedChargePence: number | null;
  /** Days within which the reduced amount applies. */
  reducedWithinDays: number | null;
  /** The terms as the signs on site state them. */
  signageTerms: string;
  jurisdiction: Jurisdiction;
};

/** The terms a notice was issued under: the operator's and its car park's, each null when none were set then. */
export type NoticeTerms = { operator: OperatorTerms | null; carPark: CarParkTerms | null };

/** One change to the terms, for the audit: field -> { from, to }. */
export type TermsChange = {
  id: string;
  actorName: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  createdAt: string;
};

export type OperatorSettingsResponse = { operator: OperatorSettings | null; changes: TermsChange[]; logoUrl: string | null };

/** GET /car-parks/{id}/terms-history: its terms' changes, newest first; hasMore when older ones were left off. */
export type CarParkTermsHistory = { changes: TermsChange[]; hasMore: boolean };

/** How many of a car park's terms changes one answer holds: terms change seldom, so this is years of them. */
export const CAR_PARK_TERMS_HISTORY_LIMIT = 100;

/** 10000 -> '£100', 6050 -> '£60.50'. */
export function formatPence(pence: number): string {
  const pounds = Math.floor(pence / 100);
  const rest = pence % 100;
  return `£${pounds.toLocaleString('en-GB')}${rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`}`;
}

/** '£100, reduced to £60 if paid within 14 days', or what is missing. */
export function describeCharge(terms: Pick<CarParkTerms, 'chargePence' | 'reducedChargePence' | 'reducedWithinDays'>): string {
  if (terms.chargePence === null) return 'No charge set';
  if (terms.reducedChargePence === null || terms.reducedWithinDays === null) return formatPence(terms.chargePence);
  return `${formatPence(terms.chargePence)}, reduced to ${formatPence(terms.reducedChargePence)} if paid within ${terms.reducedWithinDays} days`;
}

/** Pounds as typed ('100', '60.50', '£60') to pence, or null when it is not an amount. */
export function parsePounds(text: string): number | null {
  const match = /^£?\s*(\d{1,5})(?:\.(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number(match[2] ?? '0');
}
