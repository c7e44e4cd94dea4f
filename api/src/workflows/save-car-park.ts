import {
  carParkProblems,
  needsMinimumsOverrideReason,
  SERVER_MESSAGES,
  type CarPark,
  type CreateCarParkInput,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { insertCarPark, isSiteCodeTaken, updateCarPark } from '../repositories/car-parks.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { storeKeeperPostingDays } from '../repositories/keeper-posting-days.ts';
import { diffTerms, insertCarParkTerms, printedCarParkTerms, type CarParkTermsRecord, type TermsActor } from '../repositories/terms.ts';

/**
 * Creating and changing a car park. Its terms (charge, discount, signage, jurisdiction, whether it
 * is relevant land, its stay rules and the reason for periods shorter than the Single Code's minimums) are kept
 * as a history with who changed what (decision 0017), and a new jurisdiction or relevant-land
 * answer moves its notices' keeper posting days
 * (decision 0016): all in one transaction with the car park itself. What would be stored must be
 * within the sector's limits, so a car park saved before them is brought within them (or given
 * its reason) the next time it is saved.
 */

/** What the rules and the history judge: the car park as it would be stored. */
type Judged = Pick<
  CarPark,
  | 'chargePence'
  | 'reducedChargePence'
  | 'reducedWithinDays'
  | 'signageTerms'
  | 'jurisdiction'
  | 'considerationMinutes'
  | 'graceMinutes'
  | 'stayAppliesByDefault'
  | 'minimumsOverrideReason'
  | 'relevantLand'
>;

function refuseProblems(carPark: Judged): void {
  const problems = carParkProblems(carPark);
  const first = Object.values(problems)[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, { details: problems });
}

/**
 * A reason for shorter periods is kept only while a period is shorter: once both are back at the
 * Code's minimums it would explain nothing, and an evidence pack must not print it.
 */
function withReasonOnlyWhenNeeded<T extends Judged>(carPark: T): T {
  return needsMinimumsOverrideReason(carPark) ? carPark : { ...carPark, minimumsOverrideReason: null };
}

/** The history's record of the car park: every field the rules judge, and nothing else of it. */
function termsRecordOf(carPark: Judged): Judged & CarParkTermsRecord {
  const { considerationMinutes, graceMinutes, stayAppliesByDefault, minimumsOverrideReason, relevantLand } = carPark;
  return {
    ...printedCarParkTerms(carPark),
    considerationMinutes,
    graceMinutes,
    stayAppliesByDefault,
    minimumsOverrideReason,
    relevantLand,
  };
}

/** Taking a car park out of use changes nothing a notice is issued under, so it is never refused. */
const onlyDeactivates = (changes: UpdateCarParkInput) => changes.isActive === false && Object.values(definedOnly(changes)).length === 1;

const actorOf = (user: AuthUser): TermsActor => ({ id: user.id, name: `${user.firstName} ${user.lastName}`.trim() });

const siteCodeTaken = (err: unknown) => {
  throw isUniqueViolation(err) ? new AppError('CONFLICT', SERVER_MESSAGES.siteCodeTaken) : err;
};

export async function createCarPark(db: Db, input: CreateCarParkInput, user: AuthUser, now: Date): Promise<string> {
  const stored = withReasonOnlyWhenNeeded(input);
  refuseProblems(stored);
  const terms = termsRecordOf(stored);
  if (await isSiteCodeTaken(db, input.siteCode)) throw new AppError('CONFLICT', SERVER_MESSAGES.siteCodeTaken);
  return db
    .transaction()
    .execute(async (trx) => {
      const id = await insertCarPark(trx, { ...stored, now });
      await insertCarParkTerms(trx, {
        carParkId: id,
        terms,
        changes: diffTerms(null, terms),
        actor: actorOf(user),
        now: now.toISOString(),
      });
      return id;
    })
    .catch(siteCodeTaken);
}

export async function changeCarPark(
  db: Db,
  input: { id: string; before: Judged; changes: UpdateCarParkInput },
  user: AuthUser,
  now: Date,
): Promise<void> {
  const after = withReasonOnlyWhenNeeded({ ...termsRecordOf(input.before), ...definedOnly(input.changes) });
  if (!onlyDeactivates(input.changes)) refuseProblems(after);
  if (input.changes.siteCode !== undefined && (await isSiteCodeTaken(db, input.changes.siteCode, input.id))) {
    throw new AppError('CONFLICT', SERVER_MESSAGES.siteCodeTaken);
  }
  const termsAfter = termsRecordOf(after);
  const termsChanges = diffTerms(termsRecordOf(input.before), termsAfter);
  await db
    .transaction()
    .execute(async (trx) => {
      await updateCarPark(trx, input.id, { ...input.changes, minimumsOverrideReason: after.minimumsOverrideReason, now });
      if (Object.keys(termsChanges).length > 0) {
        await insertCarParkTerms(trx, {
          carParkId: input.id,
          terms: termsAfter,
          changes: termsChanges,
          actor: actorOf(user),
          now: now.toISOString(),
        });
      }
      // Either moves the route to keeper liability (Schedule 4 reaches relevant land in England and Wales only).
      if (termsChanges.jurisdiction || termsChanges.relevantLand) await storeKeeperPostingDays(trx, { carParkId: input.id });
    })
    .catch(siteCodeTaken);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
