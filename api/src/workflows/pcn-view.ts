import { isAdminRole, keeperStateOf, type Pcn, type PcnAuditResponse } from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { canViewPcn } from '../domain/pcn-rules.ts';
import { findAppealByPcnId } from '../repositories/appeals.ts';
import { findCancellationRequests } from '../repositories/cancellation-requests.ts';
import { findKeeper } from '../repositories/keepers.ts';
import { findHirer, findNamedDriver } from '../repositories/letter-parties.ts';
import { findPayments } from '../repositories/payments.ts';
import { findAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPossibleDuplicates } from '../repositories/pcn-duplicates.ts';
import { findPcnImages } from '../repositories/pcn-images.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { toPcn } from '../repositories/pcn-shape.ts';
import { findStatusHistory } from '../repositories/pcn-status.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import { recordActivity } from '../services/activities.ts';
import { createSignedUploadUrl } from '../services/upload-urls.ts';
import { hirerWithWindow } from './driver-and-hirer.ts';
import { pcnNotFound, subjectOf } from './pcn-access.ts';

/** The signed-in caller and their session: photo URLs are signed for the session. */
export type Viewer = AuthUser & { sessionId: string };

export type PcnViewDeps = Pick<AppDeps, 'db' | 'config' | 'now'>;

/** Photo URLs for one session: they stop working when it ends (services/upload-urls.ts). */
export function imageUrlFor(deps: PcnViewDeps, sessionId: string) {
  return (fileName: string) => createSignedUploadUrl(deps.config.jwtSecret, fileName, deps.now(), sessionId);
}

/** How a notice is shown to this caller: the duplicate flags are an admin tool. */
export function viewFor(deps: PcnViewDeps, user: AuthUser, possibleDuplicates?: ReadonlyArray<{ id: string; pcnNumber: string }>) {
  return { now: deps.now(), isAdmin: isAdminRole(user.role), possibleDuplicates };
}

/** One notice as GET /pcns/{id} answers it: with its history, terms and (for admins) the parties and money. */
export async function viewPcnRow(deps: PcnViewDeps, row: PcnRow, viewer: Viewer, options: { withHistory: boolean }): Promise<Pcn> {
  const { db } = deps;
  const images = (await findPcnImages(db, [row.id])).get(row.id) ?? [];
  const history = options.withHistory ? await findStatusHistory(db, row.id) : undefined;
  const isAdmin = isAdminRole(viewer.role);
  const possibleDuplicates = isAdmin ? (await findPossibleDuplicates(db, [row.id])).get(row.id) : undefined;
  const pcn = toPcn(row, images, imageUrlFor(deps, viewer.sessionId), viewFor(deps, viewer, possibleDuplicates), history);
  if (options.withHistory) {
    pcn.terms = await findNoticeTerms(db, { operatorTermsId: row.operator_terms_id, carParkTermsId: row.car_park_terms_id });
    // The registered keeper is personal data: admins only.
    if (isAdmin) {
      pcn.keeper = await findKeeper(db, row.id);
      pcn.keeperState = keeperStateOf(pcn.keeper);
      const hirer = await findHirer(db, row.id);
      pcn.hirer = hirer ? hirerWithWindow(hirer) : null;
      pcn.namedDriver = await findNamedDriver(db, row.id);
      pcn.payments = await findPayments(db, row.id);
      const appeal = await findAppealByPcnId(db, row.id);
      pcn.appeal = appeal
        ? {
            id: appeal.id,
            reference: appeal.reference,
            status: appeal.status,
            respondBy: appeal.respond_by,
            receivedAt: appeal.received_at,
            decidedAt: appeal.decided_at,
          }
        : null;
      pcn.cancellationRequests = await findCancellationRequests(db, row.id);
    }
  }
  return pcn;
}

/** The notice as it stands after a change, for the change's answer. */
export async function viewPcnById(deps: PcnViewDeps, id: string, viewer: Viewer): Promise<Pcn> {
  const row = await findPcnRowById(deps.db, id);
  if (!row) throw pcnNotFound();
  return viewPcnRow(deps, row, viewer, { withHistory: true });
}

/** GET /pcns/{id}: another USER's notice is the 404 of one that does not exist; each view is logged. */
export async function openPcn(deps: PcnViewDeps, viewer: Viewer, id: string): Promise<Pcn> {
  const row = await findPcnRowById(deps.db, id);
  if (!row || !canViewPcn(viewer, subjectOf(row))) throw pcnNotFound();
  const pcn = await viewPcnRow(deps, row, viewer, { withHistory: true });
  await recordActivity(deps.db, {
    userId: viewer.id,
    type: 'PCN_VIEWED',
    description: `Viewed PCN ${row.pcn_number}`,
    pcnId: row.id,
    now: deps.now(),
  });
  return pcn;
}

/**
 * The audit trail, oldest first. Another USER gets the 404 of a PCN that does not exist. The
 * trail outlives a deleted PCN: admins can still read it by the PCN's id.
 */
export async function readPcnAudit(deps: Pick<AppDeps, 'db'>, user: AuthUser, id: string): Promise<PcnAuditResponse> {
  const row = await findPcnRowById(deps.db, id);
  if (row ? !canViewPcn(user, subjectOf(row)) : !isAdminRole(user.role)) throw pcnNotFound();
  const entries = await findAuditEntries(deps.db, id);
  if (!row && entries.length === 0) throw pcnNotFound();
  return { pcnId: id, entries };
}
