import type { Kysely } from 'kysely';
import { PCN_AUDIT_ACTIONS } from '@parkpatrol/shared';
import { addCheck, dropCheck, isOneOf } from '../api/src/db/dialect.ts';
import { enumeratedCheckName } from './0031_enumerated_column_checks.ts';

// Written once for both engines; never edited after it lands.
//
// A landowner's request that a charge be cancelled, and an admin's decision on it, are kept in the
// charge's audit trail (decision 0042): the audit actions grow, so their check is dropped and
// added again with the set as it now stands.

const ADDED = ['cancellation_requested', 'cancellation_request_decided'];

export async function up(db: Kysely<any>): Promise<void> {
  const name = enumeratedCheckName('pcn_audit', 'action');
  await dropCheck(db, { table: 'pcn_audit', name });
  await addCheck(db, { table: 'pcn_audit', name, columns: ['action'], condition: (c) => isOneOf(c('action'), PCN_AUDIT_ACTIONS) });
}

export async function down(db: Kysely<any>): Promise<void> {
  const name = enumeratedCheckName('pcn_audit', 'action');
  const before = PCN_AUDIT_ACTIONS.filter((action) => !ADDED.includes(action));
  await dropCheck(db, { table: 'pcn_audit', name });
  await addCheck(db, { table: 'pcn_audit', name, columns: ['action'], condition: (c) => isOneOf(c('action'), before) });
}
