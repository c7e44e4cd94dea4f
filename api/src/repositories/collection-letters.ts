import { operatorTermsFromStored, type CollectionStage, type OperatorTerms } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';

/**
 * The charges the chase after the notice to keeper may be due for: issued, standing at `stage`.
 * Whether each is due and still owed is the workflow's to judge (the operator's days, payments,
 * appeals); this narrows the rows to read. Earliest notice to keeper first, at most `limit`.
 */
export async function findChaseCandidateIds(db: Db, stage: CollectionStage, limit = 500): Promise<string[]> {
  const rows = await db
    .selectFrom('pcns')
    .select('id')
    .where('collection_stage', '=', stage)
    .where('status', '=', 'ISSUED')
    .orderBy('keeper_notice_given_on')
    .orderBy('pcn_number')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** The operator's terms in force at `at` (the newest row saved by then), as a letter made then printed them. */
export async function findOperatorTermsInForceAt(db: Db, at: string): Promise<OperatorTerms | null> {
  const row = await db
    .selectFrom('operator_terms')
    .select('terms')
    .where('created_at', '<=', at)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row ? operatorTermsFromStored(JSON.parse(row.terms) as OperatorTerms) : null;
}
