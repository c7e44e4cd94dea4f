import { draftReferenceOfKey, formatPcnNumber, type OffenceType, type NoticeServedBy } from '@parkpatrol/shared';
import { deleteEvidencePacks } from './evidence-packs.ts';
import type { Db } from '../db/database.ts';
import { lockForWrites } from '../db/dialect.ts';
import { storeKeeperPostingDays } from './keeper-posting-days.ts';
import { storeNoticeTerms } from './terms.ts';
import { insertStatusChange } from './pcn-status.ts';

// Filing, editing and deleting notices, one writer at a time.

export type NewPcn = {
  id: string;
  vehicleRegistration: string;
  carParkId: string;
  offenceType: OffenceType;
  description: string;
  location: string;
  observedAt: string | null;
  /** The start of the period of parking; without one, the first sighting, else the service (as the migration back-filled). */
  firstSeenAt?: string;
  issuedAt?: string | null;
  stayApplies?: boolean;
  clockOffsetMs?: number | null;
  duplicateReason?: string | null;
  /** The officer's reason to issue although a permit was found, and the check's record as JSON (PermitCheckRecord). */
  permitOverrideReason?: string | null;
  permitCheck?: string | null;
  noticeServedBy: NoticeServedBy;
  noticeServedAt: string;
  createdBy: string;
  idempotencyKey: string | null;
  requestHash: string | null;
  now: string;
};

/**
 * Changes to PCNs one at a time, until the transaction ends, as SQLite's single writer already
 * runs them: PCN numbers are MAX + 1 and must stay unique and gapless, two notices for one parking
 * event must see each other, and a filing, an edit, a status change and a deletion all move the
 * same per-owner count rows and duplicate links, which in any other order can deadlock (seen on
 * PostgreSQL: a deletion and a filing linking to the deleted notice). PostgreSQL takes a
 * transaction-level advisory lock, so every API process waits its turn for the few milliseconds
 * a commit takes. Call it first in every transaction that writes pcns.
 */
export async function lockPcnWrites(trx: Db): Promise<void> {
  await lockForWrites(trx, 'pcn-writes');
}

/**
 * Inserts a PCN with the next number and its first history row. Call it inside a transaction:
 * reading MAX(sequence) and inserting must not interleave with another create (the unique
 * index on sequence is the backstop).
 */
export async function insertPcn(trx: Db, input: NewPcn): Promise<{ sequence: number; pcnNumber: string }> {
  const { last } = await trx
    .selectFrom('pcns')
    .select((eb) => eb.fn.max<number | null>('sequence').as('last'))
    .executeTakeFirstOrThrow();
  const sequence = Number(last ?? 0) + 1;
  const pcnNumber = formatPcnNumber(sequence);
  await trx
    .insertInto('pcns')
    .values({
      id: input.id,
      sequence,
      pcn_number: pcnNumber,
      vehicle_registration: input.vehicleRegistration,
      car_park_id: input.carParkId,
      offence_type: input.offenceType,
      description: input.description,
      location: input.location,
      status: 'SUBMITTED',
      admin_notes: null,
      observed_at: input.observedAt,
      first_seen_at: input.firstSeenAt ?? input.observedAt ?? input.noticeServedAt,
      issued_at: input.issuedAt ?? null,
      stay_applies: input.stayApplies,
      clock_offset_ms: input.clockOffsetMs ?? null,
      duplicate_reason: input.duplicateReason ?? null,
      permit_override_reason: input.permitOverrideReason ?? null,
      permit_check: input.permitCheck ?? null,
      notice_served_by: input.noticeServedBy,
      notice_served_at: input.noticeServedAt,
      created_by: input.createdBy,
      idempotency_key: input.idempotencyKey,
      // The officer's phone sends the draft's id as the key: what a ticket printed before sending says.
      draft_reference: draftReferenceOfKey(input.idempotencyKey),
      request_hash: input.requestHash,
      created_at: input.now,
      updated_at: input.now,
    })
    .execute();
  await insertStatusChange(trx, { pcnId: input.id, from: null, to: 'SUBMITTED', note: null, changedBy: input.createdBy, now: input.now });
  await storeKeeperPostingDays(trx, { pcnIds: [input.id] });
  await storeNoticeTerms(trx, input.id);
  return { sequence, pcnNumber };
}

export async function updatePcnFields(
  trx: Db,
  pcnId: string,
  fields: Partial<{
    vehicleRegistration: string;
    carParkId: string;
    offenceType: OffenceType;
    description: string;
    location: string;
    observedAt: string | null;
    firstSeenAt: string;
    issuedAt: string | null;
    stayApplies: boolean;
    duplicateReason: string | null;
    noticeServedBy: NoticeServedBy;
    noticeServedAt: string;
  }>,
  now: string,
): Promise<void> {
  await trx
    .updateTable('pcns')
    .set({
      ...(fields.vehicleRegistration !== undefined && { vehicle_registration: fields.vehicleRegistration }),
      ...(fields.carParkId !== undefined && { car_park_id: fields.carParkId }),
      ...(fields.offenceType !== undefined && { offence_type: fields.offenceType }),
      ...(fields.description !== undefined && { description: fields.description }),
      ...(fields.location !== undefined && { location: fields.location }),
      ...(fields.observedAt !== undefined && { observed_at: fields.observedAt }),
      ...(fields.firstSeenAt !== undefined && { first_seen_at: fields.firstSeenAt }),
      ...(fields.issuedAt !== undefined && { issued_at: fields.issuedAt }),
      ...(fields.stayApplies !== undefined && { stay_applies: fields.stayApplies }),
      ...(fields.duplicateReason !== undefined && { duplicate_reason: fields.duplicateReason }),
      ...(fields.noticeServedBy !== undefined && { notice_served_by: fields.noticeServedBy }),
      ...(fields.noticeServedAt !== undefined && { notice_served_at: fields.noticeServedAt }),
      updated_at: now,
    })
    .where('id', '=', pcnId)
    .execute();
  await storeKeeperPostingDays(trx, { pcnIds: [pcnId] });
  if (fields.carParkId !== undefined || fields.issuedAt !== undefined) await storeNoticeTerms(trx, pcnId);
}

/** Deletes the PCN (images, history and duplicate flags cascade; the audit trail stays) and returns the file names to remove afterwards. */
export async function deletePcn(trx: Db, pcnId: string): Promise<string[]> {
  const images = await trx.selectFrom('pcn_images').select('file_name').where('pcn_id', '=', pcnId).execute();
  // The documents sent for it go with it (their rows by the cascade, their files after the commit).
  const documents = await trx
    .selectFrom('sent_documents')
    .select('file_name')
    .where('pcn_id', '=', pcnId)
    .where('purged_at', 'is', null)
    .execute();
  const packs = await deleteEvidencePacks(trx, { pcnId });
  await trx.deleteFrom('pcns').where('id', '=', pcnId).execute();
  return [...[...images, ...documents].map((i) => i.file_name), ...packs];
}
