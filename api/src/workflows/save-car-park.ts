import {
  carParkTermsProblems,
  SERVER_MESSAGES,
  type CarParkTerms,
  type CreateCarParkInput,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { insertCarPark, isSiteCodeTaken, updateCarPark } from '../repositories/car-parks.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { storeKeeperPostingDays } from '../repositories/keeper-posting-days.ts';
import { diffTerms, insertCarParkTerms, type TermsActor } from '../repositories/terms.ts';

/**
 * Creating and changing a car park. Its terms (charge, discount, signage, jurisdiction) are kept
 * as a history with who changed what (decision 0017), and a new jurisdiction moves its notices'
 * keeper posting days (decision 0016): all in one transaction with the car park itself.
 */
function refuseTermsProblems(terms: CarParkTerms): void {
  const problems = carParkTermsProblems(terms);
  const first = Object.values(problems)[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, { details: problems });
}

const actorOf = (user: AuthUser): TermsActor => ({ id: user.id, name: `${user.firstName} ${user.lastName}`.trim() });

function termsFrom(input: CarParkTerms): CarParkTerms {
  return {
    chargePence: input.chargePence,
    reducedChargePence: input.reducedChargePence,
    reducedWithinDays: input.reducedWithinDays,
    signageTerms: input.signageTerms,
    jurisdiction: input.jurisdiction,
  };
}

const siteCodeTaken = (err: unknown) => {
  throw isUniqueViolation(err) ? new AppError('CONFLICT', SERVER_MESSAGES.siteCodeTaken) : err;
};

export async function createCarPark(db: Db, input: CreateCarParkInput, user: AuthUser, now: Date): Promise<string> {
  const terms = termsFrom(input);
  refuseTermsProblems(terms);
  if (await isSiteCodeTaken(db, input.siteCode)) throw new AppError('CONFLICT', SERVER_MESSAGES.siteCodeTaken);
  return db
    .transaction()
    .execute(async (trx) => {
      const id = await insertCarPark(trx, { ...input, now });
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
  input: { id: string; before: CarParkTerms; changes: UpdateCarParkInput },
  user: AuthUser,
  now: Date,
): Promise<void> {
  const after: CarParkTerms = termsFrom({ ...input.before, ...definedOnly(input.changes) });
  refuseTermsProblems(after);
  if (input.changes.siteCode !== undefined && (await isSiteCodeTaken(db, input.changes.siteCode, input.id))) {
    throw new AppError('CONFLICT', SERVER_MESSAGES.siteCodeTaken);
  }
  const termsChanges = diffTerms(input.before, after);
  await db
    .transaction()
    .execute(async (trx) => {
      await updateCarPark(trx, input.id, { ...input.changes, now });
      if (Object.keys(termsChanges).length > 0) {
        await insertCarParkTerms(trx, {
          carParkId: input.id,
          terms: after,
          changes: termsChanges,
          actor: actorOf(user),
          now: now.toISOString(),
        });
      }
      if (termsChanges.jurisdiction) await storeKeeperPostingDays(trx, { carParkId: input.id });
    })
    .catch(siteCodeTaken);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
