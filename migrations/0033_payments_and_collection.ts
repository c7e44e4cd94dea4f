import type { Kysely } from 'kysely';
import {
  COLLECTION_STAGES,
  DEBT_RECOVERY_OUTCOMES,
  PAYMENT_METHODS,
  PCN_AUDIT_ACTIONS,
  REFUND_METHODS,
  REFUND_STATUSES,
  SENT_DOCUMENT_KINDS,
} from '@parkpatrol/shared';
import { addCheck, columnTypes, dropCheck, isOneOf } from '../api/src/db/dialect.ts';
import { enumeratedCheckName } from './0031_enumerated_column_checks.ts';

// Written once for both engines; never edited after it lands.
//
// The money side of a charge. Card payments: each Checkout Session we create (so a return to
// /charge can say the payment is being confirmed, and a second press of Pay reuses the session),
// each card processor event received (recorded once: a replay finds its id), and the card
// payment's payment intent (one payment per intent). Refunds, by card or recorded by hand. After
// the notice to keeper: each charge's collection stage, the days its reminder and letter before
// claim were posted, the debt recovery fee a letter warned of, and the batches handed to a debt
// recovery agency with the outcomes it reported back.
//
// Three enumerated sets grow (payment methods, audit actions, sent document kinds): their checks
// from 0031 are dropped and added again with the sets as they now stand.

const GROWN: ReadonlyArray<{ table: string; column: string; values: readonly string[] }> = [
  { table: 'pcn_payments', column: 'method', values: PAYMENT_METHODS },
  { table: 'pcn_audit', column: 'action', values: PCN_AUDIT_ACTIONS },
  { table: 'sent_documents', column: 'kind', values: SENT_DOCUMENT_KINDS },
];

export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  for (const { table, column, values } of GROWN) {
    const name = enumeratedCheckName(table, column);
    await dropCheck(db, { table, name });
    await addCheck(db, { table, name, columns: [column], condition: (c) => isOneOf(c(column), values) });
  }

  await db.schema
    .createTable('card_checkouts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('amount_pence', 'integer', (col) => col.notNull())
    .addColumn('stripe_session_id', 'text', (col) => col.notNull().unique())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('idempotency_key', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('expires_at', types.timestamp, (col) => col.notNull())
    .addColumn('completed_at', types.timestamp)
    .execute();
  await db.schema.createIndex('card_checkouts_pcn').on('card_checkouts').columns(['pcn_id', 'created_at']).execute();

  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('pcn_id', 'text')
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('received_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema.alterTable('pcn_payments').addColumn('stripe_payment_intent', 'text').execute();
  await db.schema.createIndex('pcn_payments_stripe_payment_intent').on('pcn_payments').column('stripe_payment_intent').unique().execute();

  await db.schema
    .createTable('pcn_refunds')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('payment_id', 'text', (col) => col.notNull().references('pcn_payments.id').onDelete('cascade'))
    .addColumn('amount_pence', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('stripe_refund_id', 'text', (col) => col.unique())
    .addColumn('idempotency_key', 'text', (col) => col.unique())
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('pcn_refunds_pcn').on('pcn_refunds').columns(['pcn_id', 'created_at']).execute();
  await db.schema.createIndex('pcn_refunds_payment').on('pcn_refunds').column('payment_id').execute();
  await addCheck(db, {
    table: 'pcn_refunds',
    name: enumeratedCheckName('pcn_refunds', 'method'),
    columns: ['method'],
    condition: (c) => isOneOf(c('method'), REFUND_METHODS),
  });
  await addCheck(db, {
    table: 'pcn_refunds',
    name: enumeratedCheckName('pcn_refunds', 'status'),
    columns: ['status'],
    condition: (c) => isOneOf(c('status'), REFUND_STATUSES),
  });

  await db.schema
    .createTable('debt_recovery_batches')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('reference', 'text', (col) => col.notNull().unique())
    .addColumn('charge_count', 'integer', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema.alterTable('pcns').addColumn('collection_stage', 'text').execute();
  await db.schema.alterTable('pcns').addColumn('reminder_posted_on', types.date).execute();
  await db.schema.alterTable('pcns').addColumn('letter_before_claim_posted_on', types.date).execute();
  await db.schema.alterTable('pcns').addColumn('debt_recovery_fee_pence', 'integer').execute();
  await db.schema
    .alterTable('pcns')
    .addColumn('debt_recovery_batch_id', 'text', (col) => col.references('debt_recovery_batches.id'))
    .execute();
  await addCheck(db, {
    table: 'pcns',
    name: enumeratedCheckName('pcns', 'collection_stage'),
    columns: ['collection_stage'],
    condition: (c) => isOneOf(c('collection_stage'), COLLECTION_STAGES),
  });
  await db.schema.createIndex('pcns_collection_stage').on('pcns').columns(['collection_stage', 'keeper_notice_given_on']).execute();
  // A charge whose notice to keeper was posted before stages were kept stands at that stage.
  await db.updateTable('pcns').set({ collection_stage: 'NOTICE_TO_KEEPER' }).where('keeper_notice_given_on', 'is not', null).execute();

  await db.schema
    .createTable('debt_recovery_updates')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('pcn_id', 'text', (col) => col.notNull().references('pcns.id').onDelete('cascade'))
    .addColumn('batch_id', 'text', (col) => col.notNull().references('debt_recovery_batches.id'))
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('paid_pence', 'integer', (col) => col.notNull())
    .addColumn('agency_reference', 'text', (col) => col.notNull())
    .addColumn('imported_by', 'text')
    .addColumn('imported_by_name', 'text', (col) => col.notNull())
    .addColumn('imported_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('debt_recovery_updates_pcn').on('debt_recovery_updates').columns(['pcn_id', 'imported_at']).execute();
  await addCheck(db, {
    table: 'debt_recovery_updates',
    name: enumeratedCheckName('debt_recovery_updates', 'outcome'),
    columns: ['outcome'],
    condition: (c) => isOneOf(c('outcome'), DEBT_RECOVERY_OUTCOMES),
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('debt_recovery_updates').execute();
  await db.schema.dropIndex('pcns_collection_stage').execute();
  await dropCheck(db, { table: 'pcns', name: enumeratedCheckName('pcns', 'collection_stage') });
  for (const column of [
    'debt_recovery_batch_id',
    'debt_recovery_fee_pence',
    'letter_before_claim_posted_on',
    'reminder_posted_on',
    'collection_stage',
  ]) {
    await db.schema.alterTable('pcns').dropColumn(column).execute();
  }
  await db.schema.dropTable('debt_recovery_batches').execute();
  await db.schema.dropTable('pcn_refunds').execute();
  await db.schema.dropIndex('pcn_payments_stripe_payment_intent').execute();
  await db.schema.alterTable('pcn_payments').dropColumn('stripe_payment_intent').execute();
  await db.schema.dropTable('stripe_events').execute();
  await db.schema.dropTable('card_checkouts').execute();
}
