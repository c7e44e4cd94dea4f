import { formatPence } from './operator-terms.ts';

/**
 * The private parking sector's limits (the BPA/IPC Private Parking Single Code of Practice), in
 * one table. Every check below and every message a form or the API shows is worked out from it,
 * so a change to the Code is one edit here.
 */
export const SECTOR_LIMITS = {
  /** The most a parking charge may be. */
  maxChargePence: 10_000,
  /** The most the reduced amount for prompt payment may be, as a share of the charge. */
  maxReducedChargePercent: 60,
  /** The fewest days the reduced amount must be open for. */
  minReducedWithinDays: 14,
  /** The shortest consideration period (deciding whether to stay) and grace period (leaving after a stay). */
  minConsiderationMinutes: 5,
  minGraceMinutes: 10,
  /** The most that may be added to an unpaid charge for recovering the debt. */
  maxDebtRecoveryFeePence: 7_000,
} as const;

const L = SECTOR_LIMITS;
const minutes = (count: number) => `${count} ${count === 1 ? 'minute' : 'minutes'}`;

/** The most the reduced amount may be for a charge: its share of it, rounded down to the penny. */
export function maxReducedChargePence(chargePence: number): number {
  return Math.floor((chargePence * L.maxReducedChargePercent) / 100);
}

export const isChargeWithinCap = (chargePence: number): boolean => chargePence <= L.maxChargePence;

export const isReducedChargeWithinCap = (reducedChargePence: number, chargePence: number): boolean =>
  reducedChargePence <= maxReducedChargePence(chargePence);

export const isReducedPeriodLongEnough = (days: number): boolean => days >= L.minReducedWithinDays;

export const isDebtRecoveryFeeWithinCap = (feePence: number): boolean => feePence <= L.maxDebtRecoveryFeePence;

/** The periods shorter than the Code's minimums: each one needs a reason on the car park. */
export function periodsUnderMinimums(periods: {
  considerationMinutes: number;
  graceMinutes: number;
}): Array<'considerationMinutes' | 'graceMinutes'> {
  const short: Array<'considerationMinutes' | 'graceMinutes'> = [];
  if (periods.considerationMinutes < L.minConsiderationMinutes) short.push('considerationMinutes');
  if (periods.graceMinutes < L.minGraceMinutes) short.push('graceMinutes');
  return short;
}

/** Each limit in words, as the form and the API say it beside the field. */
export const SECTOR_LIMIT_MESSAGES = {
  chargePence: `At most ${formatPence(L.maxChargePence)} (the Single Code's cap)`,
  reducedChargePence: (chargePence: number) =>
    `At most ${formatPence(maxReducedChargePence(chargePence))}, ${L.maxReducedChargePercent}% of the charge (the Single Code's cap)`,
  reducedWithinDays: `At least ${L.minReducedWithinDays} days (the Single Code of Practice)`,
  minimumsOverrideReason: `Give the reason for periods shorter than the Single Code's minimums (${minutes(L.minConsiderationMinutes)}' consideration, ${minutes(L.minGraceMinutes)}' grace)`,
  debtRecoveryFeePence: `At most ${formatPence(L.maxDebtRecoveryFeePence)} (the Single Code's cap)`,
  considerationMinutesHint: `The Single Code's minimum is ${minutes(L.minConsiderationMinutes)}`,
  graceMinutesHint: `The Single Code's minimum is ${minutes(L.minGraceMinutes)}`,
} as const;

export type SectorLimitedCarPark = {
  chargePence: number | null;
  reducedChargePence: number | null;
  reducedWithinDays: number | null;
  considerationMinutes: number;
  graceMinutes: number;
  minimumsOverrideReason: string | null;
};

/** Whether a period is shorter than the Code's minimum, so the car park must say why. */
export function needsMinimumsOverrideReason(carPark: Pick<SectorLimitedCarPark, 'considerationMinutes' | 'graceMinutes'>): boolean {
  return periodsUnderMinimums(carPark).length > 0;
}

/**
 * Where a car park is outside the sector's limits, field by field. Judged on what would be
 * stored, so a car park saved before the limits must be brought within them (or, for the
 * periods, given its reason) the next time it is saved; reading it is never refused.
 */
export function sectorLimitProblems(carPark: SectorLimitedCarPark): Partial<Record<keyof SectorLimitedCarPark, string>> {
  const problems: Partial<Record<keyof SectorLimitedCarPark, string>> = {};
  if (carPark.chargePence !== null && !isChargeWithinCap(carPark.chargePence)) problems.chargePence = SECTOR_LIMIT_MESSAGES.chargePence;
  if (
    carPark.reducedChargePence !== null &&
    carPark.chargePence !== null &&
    !isReducedChargeWithinCap(carPark.reducedChargePence, carPark.chargePence)
  ) {
    problems.reducedChargePence = SECTOR_LIMIT_MESSAGES.reducedChargePence(carPark.chargePence);
  }
  if (carPark.reducedWithinDays !== null && !isReducedPeriodLongEnough(carPark.reducedWithinDays)) {
    problems.reducedWithinDays = SECTOR_LIMIT_MESSAGES.reducedWithinDays;
  }
  if (needsMinimumsOverrideReason(carPark) && (carPark.minimumsOverrideReason ?? '').trim() === '') {
    problems.minimumsOverrideReason = SECTOR_LIMIT_MESSAGES.minimumsOverrideReason;
  }
  return problems;
}
