import { describe, expect, it } from 'vitest';
import { carParkProblems, createCarParkInputSchema, updateCarParkInputSchema } from './schemas.ts';
import {
  isChargeWithinCap,
  isDebtRecoveryFeeWithinCap,
  isReducedChargeWithinCap,
  isReducedPeriodLongEnough,
  maxReducedChargePence,
  periodsUnderMinimums,
  SECTOR_LIMIT_MESSAGES,
  SECTOR_LIMITS,
  sectorLimitProblems,
  type SectorLimitedCarPark,
} from './sector-limits.ts';

const L = SECTOR_LIMITS;
/** A car park at every limit: the most it may charge, the least it may wait. */
const atLimits: SectorLimitedCarPark = {
  chargePence: L.maxChargePence,
  reducedChargePence: maxReducedChargePence(L.maxChargePence),
  reducedWithinDays: L.minReducedWithinDays,
  considerationMinutes: L.minConsiderationMinutes,
  graceMinutes: L.minGraceMinutes,
  minimumsOverrideReason: null,
};

describe('the sector limits table', () => {
  it("holds the Single Code's figures", () => {
    expect(L).toEqual({
      maxChargePence: 10_000,
      maxReducedChargePercent: 60,
      minReducedWithinDays: 14,
      minConsiderationMinutes: 5,
      minGraceMinutes: 10,
      maxDebtRecoveryFeePence: 7_000,
    });
  });

  it('caps the charge at £100: at it, a penny under and a penny over', () => {
    expect(isChargeWithinCap(L.maxChargePence)).toBe(true);
    expect(isChargeWithinCap(L.maxChargePence - 1)).toBe(true);
    expect(isChargeWithinCap(L.maxChargePence + 1)).toBe(false);
    expect(isChargeWithinCap(15_000)).toBe(false);
  });

  it('caps the reduced amount at 60% of the charge, rounded down to the penny on odd amounts', () => {
    expect(maxReducedChargePence(10_000)).toBe(6_000);
    expect(isReducedChargeWithinCap(6_000, 10_000)).toBe(true);
    expect(isReducedChargeWithinCap(5_999, 10_000)).toBe(true);
    expect(isReducedChargeWithinCap(6_001, 10_000)).toBe(false);
    expect(isReducedChargeWithinCap(6_100, 10_000)).toBe(false);
    // 60% of £99.99 is £59.994: £59.99 is within, £60 is not.
    expect(maxReducedChargePence(9_999)).toBe(5_999);
    expect(isReducedChargeWithinCap(5_999, 9_999)).toBe(true);
    expect(isReducedChargeWithinCap(6_000, 9_999)).toBe(false);
    // 60% of £1.01 is 60.6p; of £85.55, £51.33.
    expect(maxReducedChargePence(101)).toBe(60);
    expect(maxReducedChargePence(8_555)).toBe(5_133);
  });

  it('asks for at least 14 days at the reduced amount', () => {
    expect(isReducedPeriodLongEnough(L.minReducedWithinDays)).toBe(true);
    expect(isReducedPeriodLongEnough(L.minReducedWithinDays + 1)).toBe(true);
    expect(isReducedPeriodLongEnough(L.minReducedWithinDays - 1)).toBe(false);
  });

  it('finds the consideration and grace periods shorter than 5 and 10 minutes', () => {
    expect(periodsUnderMinimums({ considerationMinutes: 5, graceMinutes: 10 })).toEqual([]);
    expect(periodsUnderMinimums({ considerationMinutes: 6, graceMinutes: 11 })).toEqual([]);
    expect(periodsUnderMinimums({ considerationMinutes: 4, graceMinutes: 10 })).toEqual(['considerationMinutes']);
    expect(periodsUnderMinimums({ considerationMinutes: 5, graceMinutes: 9 })).toEqual(['graceMinutes']);
    expect(periodsUnderMinimums({ considerationMinutes: 0, graceMinutes: 1 })).toEqual(['considerationMinutes', 'graceMinutes']);
  });

  it('caps the debt-recovery fee at £70', () => {
    expect(isDebtRecoveryFeeWithinCap(L.maxDebtRecoveryFeePence)).toBe(true);
    expect(isDebtRecoveryFeeWithinCap(L.maxDebtRecoveryFeePence - 1)).toBe(true);
    expect(isDebtRecoveryFeeWithinCap(L.maxDebtRecoveryFeePence + 1)).toBe(false);
  });

  it('says each limit in words worked out from the table', () => {
    expect(SECTOR_LIMIT_MESSAGES.chargePence).toBe("At most £100 (the Single Code's cap)");
    expect(SECTOR_LIMIT_MESSAGES.reducedChargePence(10_000)).toBe("At most £60, 60% of the charge (the Single Code's cap)");
    expect(SECTOR_LIMIT_MESSAGES.reducedChargePence(9_999)).toBe("At most £59.99, 60% of the charge (the Single Code's cap)");
    expect(SECTOR_LIMIT_MESSAGES.reducedWithinDays).toBe('At least 14 days (the Single Code of Practice)');
    expect(SECTOR_LIMIT_MESSAGES.debtRecoveryFeePence).toBe("At most £70 (the Single Code's cap)");
    expect(SECTOR_LIMIT_MESSAGES.minimumsOverrideReason).toBe(
      "Give the reason for periods shorter than the Single Code's minimums (5 minutes' consideration, 10 minutes' grace)",
    );
  });
});

describe('sectorLimitProblems', () => {
  it('finds nothing wrong with a car park at every limit, or with no charge set', () => {
    expect(sectorLimitProblems(atLimits)).toEqual({});
    expect(sectorLimitProblems({ ...atLimits, chargePence: null, reducedChargePence: null, reducedWithinDays: null })).toEqual({});
  });

  it('names each field over its limit', () => {
    expect(sectorLimitProblems({ ...atLimits, chargePence: 15_000, reducedChargePence: 6_000 })).toEqual({
      chargePence: SECTOR_LIMIT_MESSAGES.chargePence,
    });
    expect(sectorLimitProblems({ ...atLimits, reducedChargePence: 6_100 })).toEqual({
      reducedChargePence: SECTOR_LIMIT_MESSAGES.reducedChargePence(10_000),
    });
    expect(sectorLimitProblems({ ...atLimits, reducedWithinDays: 13 })).toEqual({
      reducedWithinDays: SECTOR_LIMIT_MESSAGES.reducedWithinDays,
    });
  });

  it('lets shorter periods through only with a reason, and a blank reason is none', () => {
    const short = { ...atLimits, considerationMinutes: 2 };
    expect(sectorLimitProblems(short)).toEqual({ minimumsOverrideReason: SECTOR_LIMIT_MESSAGES.minimumsOverrideReason });
    expect(sectorLimitProblems({ ...short, minimumsOverrideReason: '   ' })).toEqual({
      minimumsOverrideReason: SECTOR_LIMIT_MESSAGES.minimumsOverrideReason,
    });
    expect(sectorLimitProblems({ ...short, minimumsOverrideReason: 'No-stopping zone: no consideration period applies' })).toEqual({});
    expect(sectorLimitProblems({ ...atLimits, graceMinutes: 9 })).toHaveProperty('minimumsOverrideReason');
  });
});

describe('the car park schema and its rules together', () => {
  const input = { name: 'Quayside', siteCode: 'QS1' };

  it('refuses a charge over the cap as the field is read, with the same words', () => {
    const parsed = createCarParkInputSchema.safeParse({ ...input, chargePence: 15_000 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['chargePence'], message: SECTOR_LIMIT_MESSAGES.chargePence });
    expect(updateCarParkInputSchema.safeParse({ chargePence: L.maxChargePence }).success).toBe(true);
  });

  it('defaults to no reason, and reads a blank one as none', () => {
    expect(createCarParkInputSchema.parse(input).minimumsOverrideReason).toBeNull();
    expect(updateCarParkInputSchema.parse({ minimumsOverrideReason: '  ' }).minimumsOverrideReason).toBeNull();
    expect(updateCarParkInputSchema.parse({ minimumsOverrideReason: ' Loading bay ' }).minimumsOverrideReason).toBe('Loading bay');
  });

  it('gives the plainer problem of a field first: a reduction not below the charge is that, before it is over 60% of it', () => {
    expect(carParkProblems({ ...atLimits, chargePence: 6_000, reducedChargePence: 6_000 })).toEqual({
      reducedChargePence: 'Must be less than the charge',
    });
    expect(carParkProblems({ ...atLimits, reducedChargePence: 6_100, considerationMinutes: 0 })).toEqual({
      reducedChargePence: SECTOR_LIMIT_MESSAGES.reducedChargePence(10_000),
      minimumsOverrideReason: SECTOR_LIMIT_MESSAGES.minimumsOverrideReason,
    });
  });
});
