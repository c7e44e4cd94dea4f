import { APPEAL_MESSAGES, type AppealSetAside } from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import { findAppealById, findAttachments } from '../repositories/appeals.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { appealNotFound } from './decide-appeal.ts';
import { discardEvidenceFiles } from './pcn-evidence.ts';

/**
 * POST /appeals/{id}/set-aside: an open appeal that is not the motorist's (filed by someone who
 * read the windscreen notice, decision 0032) is set aside with the admin's reason. It leaves the
 * appeals table for set_aside_appeals, kept as it was filed, so the charge's one appeal is free
 * again: the hold it made ends and the motorist's own appeal, online or entered by an admin, is
 * taken as any first appeal is. A decided appeal is never set aside: its decision was sent and
 * acted on (a cancelled charge, a verification code). Audited; the squatter's files are deleted
 * once it commits, their names and SHA-256s kept in the copy and the audit entry.
 */
export async function setAsideAppeal(
  deps: Pick<AppDeps, 'db' | 'evidence' | 'logger'>,
  input: { appealId: string; reason: string; user: AuthUser; now: Date },
): Promise<AppealSetAside> {
  const now = input.now.toISOString();
  const { setAside, fileNames } = await deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const appeal = await findAppealById(trx, input.appealId);
    if (!appeal) throw appealNotFound();
    if (appeal.status !== 'OPEN') throw new AppError('CONFLICT', APPEAL_MESSAGES.setAsideDecided);
    const attachments = await findAttachments(trx, appeal.id);
    await trx
      .insertInto('set_aside_appeals')
      .values({
        id: appeal.id,
        pcn_id: appeal.pcn_id,
        reference: appeal.reference,
        appeal: JSON.stringify({ ...appeal, attachments }),
        reason: input.reason,
        set_aside_at: now,
        set_aside_by: input.user.id,
      })
      .execute();
    await trx.deleteFrom('appeal_attachments').where('appeal_id', '=', appeal.id).execute();
    await trx.deleteFrom('appeals').where('id', '=', appeal.id).execute();
    await insertAuditEntries(trx, [
      auditEntry(appeal.pcn_id, 'appeal_set_aside', input.user, null, now, {
        appeal: { from: appeal.reference, to: null },
        appellant: { from: appeal.appellant_name, to: null },
        reason: { from: null, to: input.reason },
        attachments: { from: attachments.map((attachment) => attachment.sha256), to: null },
      }),
    ]);
    return {
      setAside: { reference: appeal.reference, pcnId: appeal.pcn_id, reason: input.reason, setAsideAt: now },
      fileNames: attachments.filter((attachment) => attachment.purged_at === null).map((attachment) => attachment.file_name),
    };
  });
  await discardEvidenceFiles(deps, fileNames);
  return setAside;
}
