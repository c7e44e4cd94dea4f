import { ERROR_MESSAGES, SERVER_MESSAGES, type PcnStatus } from '@parkpatrol/shared';
import type { PcnDecision, PcnSubject } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import type { PcnRow } from '../repositories/pcns.ts';

/** What the PCN rules look at in a stored row. */
export function subjectOf(row: PcnRow): PcnSubject {
  return { createdBy: row.created_by, status: row.status as PcnStatus };
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
