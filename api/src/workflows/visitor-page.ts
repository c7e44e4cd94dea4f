import {
  addDays,
  endOfUkDay,
  formatPermitDay,
  permitStartOfDay,
  ukDate,
  VISITOR_PAGE_LIMITS,
  VISITOR_TEXTS,
  type VisitorPageInfo,
  type VisitorPageSettings,
  type VisitorPageSettingsInput,
  type VisitorPermitGranted,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { RateLimiter, RateLimitRule } from '../auth/rate-limit.ts';
import type { Db } from '../db/database.ts';
import { lockNamesForTransaction } from '../db/dialect.ts';
import { AppError } from '../http/app-error.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { findPermitsFor, insertPermit } from '../repositories/permits.ts';
import { tooManyAttempts } from './auth-limits.ts';
import { assertMayManagePermits } from './permit-access.ts';

type Deps = { db: Db; now: () => Date };

const DAY_MS = 24 * 60 * 60 * 1000;
/** Registrations from one address at one car park (key: car park and address), over a day. */
export const VISITORS_PER_ADDRESS: RateLimitRule = {
  scope: 'visitor-page-per-address',
  limit: VISITOR_PAGE_LIMITS.perAddressDaily,
  windowMs: DAY_MS,
};
/** Wrong visitor codes from one address: the code is a shared secret on a sign, not to be guessed. */
export const WRONG_VISITOR_CODES: RateLimitRule = {
  scope: 'visitor-page-wrong-codes',
  limit: VISITOR_PAGE_LIMITS.wrongCodesPerAddress,
  windowMs: 15 * 60 * 1000,
};

async function settingsOf(db: Db, carParkId: string, now: Date): Promise<VisitorPageSettings> {
  const row = await db
    .selectFrom('car_parks')
    .select(['visitor_site_code', 'visitor_code', 'visitor_daily_limit'])
    .where('id', '=', carParkId)
    .executeTakeFirstOrThrow();
  return {
    siteCode: row.visitor_site_code,
    visitorCode: row.visitor_code,
    dailyLimit: row.visitor_daily_limit,
    usedToday: await visitorPermitsToday(db, carParkId, now),
  };
}

/** The visitor permits the page gave at this car park on today's UK day. */
async function visitorPermitsToday(db: Db, carParkId: string, now: Date): Promise<number> {
  const today = ukDate(now);
  const row = await db
    .selectFrom('permits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('car_park_id', '=', carParkId)
    .where('source', '=', 'VISITOR_PAGE')
    .where('created_at', '>=', permitStartOfDay(today))
    .where('created_at', '<', permitStartOfDay(addDays(today, 1)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function viewVisitorPage(deps: Deps, input: { user: AuthUser; carParkId: string }): Promise<VisitorPageSettings> {
  await assertMayManagePermits(deps.db, input.user, input.carParkId);
  return settingsOf(deps.db, input.carParkId, deps.now());
}

/** The landowner (or an admin) opens, changes or closes the page: its address, its code, its places a day. */
export async function saveVisitorPage(
  deps: Deps,
  input: { user: AuthUser; carParkId: string; settings: VisitorPageSettingsInput },
): Promise<VisitorPageSettings> {
  await assertMayManagePermits(deps.db, input.user, input.carParkId);
  const { siteCode, visitorCode, dailyLimit } = input.settings;
  try {
    await deps.db
      .updateTable('car_parks')
      .set({
        visitor_site_code: siteCode,
        visitor_code: siteCode === null ? null : visitorCode,
        visitor_daily_limit: dailyLimit,
      })
      .where('id', '=', input.carParkId)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('CONFLICT', VISITOR_TEXTS.siteCodeTaken, { details: { siteCode: VISITOR_TEXTS.siteCodeTaken } });
    }
    throw error;
  }
  return settingsOf(deps.db, input.carParkId, deps.now());
}

async function openPage(db: Db, siteCode: string) {
  const row = await db
    .selectFrom('car_parks')
    .select(['id', 'name', 'visitor_code', 'visitor_daily_limit', 'is_active'])
    .where('visitor_site_code', '=', siteCode.trim().toLowerCase())
    .executeTakeFirst();
  // A closed car park's page is as gone as one never opened.
  if (!row || !row.is_active || !row.visitor_code) throw new AppError('NOT_FOUND', VISITOR_TEXTS.pageNotFound);
  return row;
}

export async function readVisitorPage(deps: Deps, siteCode: string): Promise<VisitorPageInfo> {
  const page = await openPage(deps.db, siteCode);
  return { carParkName: page.name };
}

/**
 * A visitor registers: the site's code must match (wrong codes from one address are limited), a
 * registration already given a visitor permit today gets the same answer again (not a second
 * place), and a new one takes a place of the car park's day and of the address's day. The permit
 * holds until the end of the UK day, and officers' phones hear of it on their next sync.
 */
export async function registerVisitor(
  deps: Deps,
  limits: RateLimiter,
  input: { siteCode: string; vehicleRegistration: string; visitorCode: string; address: string },
): Promise<{ granted: VisitorPermitGranted; isNew: boolean }> {
  const page = await openPage(deps.db, input.siteCode);
  const wrongCodes = await limits.check(WRONG_VISITOR_CODES, input.address);
  if (wrongCodes.isLimited) throw tooManyAttempts(wrongCodes, VISITOR_TEXTS.tooManyWrongCodes);
  if (input.visitorCode.trim().toLowerCase() !== page.visitor_code!.toLowerCase()) {
    await limits.hit(WRONG_VISITOR_CODES, input.address);
    throw new AppError('VALIDATION_FAILED', VISITOR_TEXTS.wrongCode, { details: { visitorCode: VISITOR_TEXTS.wrongCode } });
  }
  const now = deps.now();
  const today = ukDate(now);
  const validUntil = endOfUkDay(today);
  const granted = (registration: string): VisitorPermitGranted => ({
    carParkName: page.name,
    vehicleRegistration: registration,
    validUntil,
    message: VISITOR_TEXTS.granted(registration, formatPermitDay(validUntil)),
  });
  const already = (await findPermitsFor(deps.db, page.id, input.vehicleRegistration)).find(
    (permit) => permit.source === 'VISITOR_PAGE' && permit.endedAt === null && permit.validUntil === validUntil,
  );
  if (already) return { granted: granted(already.vehicleRegistration), isNew: false };

  const byAddress = await limits.take([{ rule: VISITORS_PER_ADDRESS, key: `${page.id}:${input.address}` }]);
  if (byAddress.isLimited) throw tooManyAttempts(byAddress, VISITOR_TEXTS.tooManyFromHere);
  const created = await deps.db.transaction().execute(async (trx) => {
    // Counted in the transaction that adds the permit, one visitor of this car park at a time
    // (SQLite runs it alone; PostgreSQL waits on the car park's lock): two at the last place
    // cannot both take it.
    await lockNamesForTransaction(trx, 'visitorPage', [page.id]);
    if ((await visitorPermitsToday(trx, page.id, now)) >= page.visitor_daily_limit) return false;
    await insertPermit(trx, {
      carParkId: page.id,
      vehicleRegistration: input.vehicleRegistration,
      kind: 'VISITOR',
      validFrom: now.toISOString(),
      validUntil,
      note: '',
      source: 'VISITOR_PAGE',
      actor: { id: null, name: 'Visitor page' },
      now: now.toISOString(),
    });
    return true;
  });
  if (!created) {
    await limits.refund([{ rule: VISITORS_PER_ADDRESS, key: `${page.id}:${input.address}` }]);
    throw new AppError('CONFLICT', VISITOR_TEXTS.full);
  }
  return { granted: granted(input.vehicleRegistration), isNew: true };
}
