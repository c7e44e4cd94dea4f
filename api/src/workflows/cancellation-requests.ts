import {
  CANCELLATION_MESSAGES,
  canTransition,
  isLandownerRole,
  SERVER_MESSAGES,
  type CancellationDecisionInput,
  type CancellationRequest,
  type CancellationRequestInput,
  type Pcn,
} from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import {
  findCancellationRequest,
  hasPendingCancellationRequest,
  insertCancellationRequest,
  recordCancellationDecision,
  toCancellationRequest,
} from '../repositories/cancellation-requests.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { applyStatusChange } from './change-pcn-status.ts';
import { pcnNotFound } from './pcn-access.ts';
import { isAssignedToCarPark } from './permit-access.ts';
import { viewPcnById, type PcnViewDeps, type Viewer } from './pcn-view.ts';

function fullName(user: Pick<AuthUser, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/**
 * POST /pcns/{id}/cancellation-requests: a landowner asks that a charge issued at one of their car
 * parks be cancelled (decision 0042). A charge elsewhere is the 404 of one that does not exist; a
 * closed charge cannot be cancelled (409); one request waits at a time.
 */
export async function requestCancellation(
  deps: Pick<AppDeps, 'db' | 'now'>,
  user: AuthUser,
  pcnId: string,
  input: CancellationRequestInput,
): Promise<CancellationRequest> {
  // Admins cancel a charge themselves; officers never ask on a landowner's behalf.
  if (!isLandownerRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  const now = deps.now().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const row = await findPcnRowById(trx, pcnId);
    if (!row || !(await isAssignedToCarPark(trx, user.id, row.car_park_id))) throw pcnNotFound();
    if (!canTransition(row.status, 'CANCELLED')) throw new AppError('CONFLICT', CANCELLATION_MESSAGES.notCancellable);
    if (await hasPendingCancellationRequest(trx, row.id)) throw new AppError('CONFLICT', CANCELLATION_MESSAGES.alreadyPending);
    const request = await insertCancellationRequest(trx, {
      pcnId: row.id,
      reason: input.reason,
      requestedBy: user.id,
      requestedByName: fullName(user),
      now,
    });
    await insertAuditEntries(trx, [
      auditEntry(row.id, 'cancellation_requested', user, null, now, { reason: { from: null, to: input.reason } }),
    ]);
    return toCancellationRequest(request);
  });
}

/**
 * POST /pcns/{id}/cancellation-requests/{requestId}/decision: an admin approves (the charge is
 * cancelled with LANDOWNER_REQUEST, its note the landowner's reason) or declines, with a reason
 * either way; the decision, the cancellation and their audit entries commit together.
 */
export async function decideCancellationRequest(
  deps: PcnViewDeps,
  viewer: Viewer,
  ids: { pcnId: string; requestId: string },
  input: CancellationDecisionInput,
): Promise<Pcn> {
  const nowDate = deps.now();
  const now = nowDate.toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const request = await findCancellationRequest(trx, ids.pcnId, ids.requestId);
    if (!request) throw new AppError('NOT_FOUND', CANCELLATION_MESSAGES.requestNotFound);
    const decided = await recordCancellationDecision(trx, {
      id: request.id,
      status: input.decision,
      decidedBy: viewer.id,
      decidedByName: fullName(viewer),
      reason: input.reason,
      now,
    });
    if (!decided) throw new AppError('CONFLICT', CANCELLATION_MESSAGES.requestNotPending);
    await insertAuditEntries(trx, [
      auditEntry(ids.pcnId, 'cancellation_request_decided', viewer, null, now, {
        request: { from: 'PENDING', to: input.decision },
        reason: { from: null, to: input.reason },
      }),
    ]);
    if (input.decision === 'APPROVED') {
      await applyStatusChange(trx, {
        pcnId: ids.pcnId,
        actor: viewer,
        status: 'CANCELLED',
        historyNote: `Cancelled at the landowner's request: ${input.reason}`,
        cancellation: { reason: 'LANDOWNER_REQUEST', note: request.reason },
        now: nowDate,
      });
    }
  });
  return viewPcnById(deps, ids.pcnId, viewer);
}
