import {
  findValidPermit,
  isAdminRole,
  permitWarning,
  SERVER_MESSAGES,
  type Permit,
  type PermitCheckRecord,
  type PermitInput,
  type PermitListResponse,
  type PermitSyncResponse,
  type UpdatePermitInput,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { listActiveCarParks } from '../repositories/car-parks.ts';
import {
  describePermitRegister,
  endPermit,
  findPermitById,
  findPermitsFor,
  insertPermit,
  listPermits,
  listPermitsChangedSince,
  toPhonePermit,
  updatePermit,
} from '../repositories/permits.ts';
import { assertMayManagePermits } from './permit-access.ts';

type Deps = { db: Db; now: () => Date };

/**
 * How far back each sync reaches before the time it last asked. A permit is stamped with the
 * time its request began, and may commit a moment after a sync has read the register: asking
 * again for the last minute costs a few rows, and missing one would leave a permit holder
 * uncovered on the phone until the next full list.
 */
export const SYNC_OVERLAP_MS = 60_000;

export function actorOf(user: AuthUser): { id: string; name: string } {
  return { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() };
}

function permitNotFound(): AppError {
  return new AppError('NOT_FOUND', SERVER_MESSAGES.permitNotFound);
}

export async function listCarParkPermits(
  deps: Deps,
  input: { user: AuthUser; carParkId: string; all: boolean },
): Promise<PermitListResponse> {
  await assertMayManagePermits(deps.db, input.user, input.carParkId);
  return { permits: await listPermits(deps.db, [input.carParkId], { now: deps.now().toISOString(), all: input.all }) };
}

export async function addPermit(deps: Deps, input: { user: AuthUser; carParkId: string; permit: PermitInput }): Promise<Permit> {
  await assertMayManagePermits(deps.db, input.user, input.carParkId);
  const now = deps.now().toISOString();
  const id = await deps.db.transaction().execute((trx) =>
    insertPermit(trx, {
      carParkId: input.carParkId,
      vehicleRegistration: input.permit.vehicleRegistration,
      kind: input.permit.kind,
      validFrom: input.permit.validFrom ?? now,
      validUntil: input.permit.validUntil,
      note: input.permit.note,
      source: 'STAFF_ENTRY',
      actor: actorOf(input.user),
      now,
    }),
  );
  return (await findPermitById(deps.db, input.carParkId, id))!;
}

export async function changePermit(
  deps: Deps,
  input: { user: AuthUser; carParkId: string; permitId: string; changes: UpdatePermitInput },
): Promise<Permit> {
  await assertMayManagePermits(deps.db, input.user, input.carParkId);
  const now = deps.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const before = await findPermitById(trx, input.carParkId, input.permitId);
    if (!before) throw permitNotFound();
    // An ended permit is history: a change would rewrite what the officers were told.
    if (before.endedAt !== null) throw new AppError('CONFLICT', SERVER_MESSAGES.permitEnded);
    const validFrom = input.changes.validFrom ?? before.validFrom;
    const validUntil = input.changes.validUntil === undefined ? before.validUntil : input.changes.validUntil;
    if (validUntil !== null && validUntil < validFrom) {
      const message = 'The permit must end after it starts';
      throw new AppError('VALIDATION_FAILED', message, { details: { validUntil: message } });
    }
    await updatePermit(trx, { before, changes: input.changes, actor: actorOf(input.user), now });
  });
  return (await findPermitById(deps.db, input.carParkId, input.permitId))!;
}

/** DELETE ends the permit: the row, its history and who ended it stay; ending it twice changes nothing. */
export async function endCarParkPermit(deps: Deps, input: { user: AuthUser; carParkId: string; permitId: string }): Promise<Permit> {
  await assertMayManagePermits(deps.db, input.user, input.carParkId);
  const now = deps.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const permit = await findPermitById(trx, input.carParkId, input.permitId);
    if (!permit) throw permitNotFound();
    if (permit.endedAt === null) await endPermit(trx, { permitId: permit.id, actor: actorOf(input.user), now });
  });
  return (await findPermitById(deps.db, input.carParkId, input.permitId))!;
}

/**
 * The permits an officer's phone keeps (decision 0041): those of the car parks they may file
 * against. The whole list in force without `since`; with it, every change since (a little
 * before, see SYNC_OVERLAP_MS), ended and expired permits too, so the phone drops them.
 */
export async function syncPermits(deps: Deps, input: { user: AuthUser; since: string | undefined }): Promise<PermitSyncResponse> {
  if (input.user.role !== 'USER' && !isAdminRole(input.user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  const now = deps.now();
  const carParks = await listActiveCarParks(deps.db, isAdminRole(input.user.role) ? {} : { assignedToUserId: input.user.id });
  const carParkIds = carParks.map((carPark) => carPark.id);
  const syncedAt = now.toISOString();
  if (!input.since) {
    const permits = await listPermits(deps.db, carParkIds, { now: syncedAt });
    return { permits: permits.map(toPhonePermit), carParkIds, syncedAt, full: true };
  }
  const from = new Date(Math.min(Date.parse(input.since), now.getTime()) - SYNC_OVERLAP_MS).toISOString();
  const permits = await listPermitsChangedSince(deps.db, carParkIds, from);
  return { permits: permits.map(toPhonePermit), carParkIds, syncedAt, full: false };
}

/**
 * The server's own check at filing (decision 0041): whatever the phone knew, a registration that
 * holds a permit valid at the car park when the notice was issued is refused 409 PERMIT_HOLDER,
 * naming the permit, unless the officer gave `permitOverrideReason`. The check's record (when,
 * against which register, what matched, the override) is stored with the notice for the
 * evidence pack.
 */
export async function checkPermitsAtFiling(
  db: Db,
  notice: { carParkId: string; vehicleRegistration: string; issuedAt: string; overrideReason: string | null; checkedAt: string },
): Promise<PermitCheckRecord> {
  const candidates = await findPermitsFor(db, notice.carParkId, notice.vehicleRegistration);
  const matched = findValidPermit(candidates, {
    carParkId: notice.carParkId,
    vehicleRegistration: notice.vehicleRegistration,
    at: notice.issuedAt,
  });
  if (matched && !notice.overrideReason) {
    const message = permitWarning(matched);
    throw new AppError('PERMIT_HOLDER', message, {
      details: {
        permitOverrideReason: message,
        permitId: matched.id,
        permitKind: matched.kind,
        permitValidUntil: matched.validUntil ?? '',
      },
    });
  }
  const register = await describePermitRegister(db, notice.carParkId, notice.issuedAt);
  return {
    checkedAt: notice.checkedAt,
    carParkId: notice.carParkId,
    permitsInForce: register.inForce,
    listChangedAt: register.changedAt,
    matched: matched
      ? {
          id: matched.id,
          kind: matched.kind,
          vehicleRegistration: matched.vehicleRegistration,
          validFrom: matched.validFrom,
          validUntil: matched.validUntil,
        }
      : null,
    overrideReason: notice.overrideReason,
  };
}
