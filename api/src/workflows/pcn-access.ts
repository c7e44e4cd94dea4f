import { ERROR_MESSAGES, isAdminRole, SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { decidePcnChange, type PcnDecision, type PcnSubject } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { findCarParkForFiling, type CarParkForFiling } from '../repositories/car-park-for-filing.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';

/** What the PCN rules look at in a stored row. */
export function subjectOf(row: PcnRow): PcnSubject {
  return { createdBy: row.created_by, status: row.status };
}

/** The one answer for a PCN that does not exist, or that the caller may not know exists. */
export function pcnNotFound(): AppError {
  return new AppError('NOT_FOUND', ERROR_MESSAGES.pcnNotFound);
}

/** Turns a rule's refusal into its answer: hidden is the 404 of a missing PCN, locked a 409, forbidden a 403. */
export function assertDecision(decision: PcnDecision, lockedMessage: string = SERVER_MESSAGES.pcnNotEditable): void {
  if (decision === 'hidden') throw pcnNotFound();
  if (decision === 'locked') throw new AppError('CONFLICT', lockedMessage);
  if (decision === 'forbidden') throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
}

/** The stored PCN if the actor may edit or delete it now (its owner while SUBMITTED, an admin always), else the rule's refusal. */
export async function findChangeablePcn(db: Db, actor: AuthUser, pcnId: string): Promise<PcnRow> {
  const row = await findPcnRowById(db, pcnId);
  if (!row) throw pcnNotFound();
  assertDecision(decidePcnChange(actor, subjectOf(row)));
  return row;
}

/** A USER files only against an active car park assigned to them; admins against any active one. */
export async function assertMayFileAgainst(
  db: Db,
  user: AuthUser,
  carParkId: string,
  options: { mustBeActive: boolean } = { mustBeActive: true },
): Promise<CarParkForFiling> {
  const carPark = await findCarParkForFiling(db, carParkId, user.id);
  if (!carPark || (options.mustBeActive && !carPark.isActive)) {
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.carParkNotFound, { details: { carParkId: SERVER_MESSAGES.carParkNotFound } });
  }
  if (!isAdminRole(user.role) && !carPark.isAssigned) {
    throw new AppError('FORBIDDEN', SERVER_MESSAGES.carParkNotAssigned, { details: { carParkId: SERVER_MESSAGES.carParkNotAssigned } });
  }
  return carPark;
}
