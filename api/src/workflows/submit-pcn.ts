import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { decidePcnSubmit } from '../domain/pcn-rules.ts';
import { findPcnRowById, type PcnRow } from '../repositories/pcn-rows.ts';
import { assertDecision, pcnNotFound, subjectOf } from './pcn-access.ts';

/**
 * POST /pcns/{id}/submit: an idempotent confirmation that writes nothing, since a PCN is
 * SUBMITTED from the moment it is filed. Answers with the stored PCN while it still is, for its
 * owner or an admin; once it has moved on it is a conflict (409).
 */
export async function submitPcn(db: Db, actor: AuthUser, pcnId: string): Promise<PcnRow> {
  const row = await findPcnRowById(db, pcnId);
  if (!row) throw pcnNotFound();
  assertDecision(decidePcnSubmit(actor, subjectOf(row)));
  return row;
}
