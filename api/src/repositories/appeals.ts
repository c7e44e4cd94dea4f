import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import {
  OFFENCE_TYPE_LABELS,
  pcnTitle,
  type Appeal,
  type AppealAttachment,
  type AppealListItem,
  type AppealListQuery,
  type AppealSortKey,
  type AppealOutcome,
  type EarlierCharge,
} from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { AppealAttachmentsTable, AppealsTable, PcnsTable } from '../db/schema.ts';
import { findNoticeTerms } from './terms.ts';

export type AppealRow = Selectable<AppealsTable>;
export type AttachmentRow = Selectable<AppealAttachmentsTable>;

export async function findAppealByPcnId(db: Db, pcnId: string): Promise<AppealRow | undefined> {
  return db.selectFrom('appeals').selectAll().where('pcn_id', '=', pcnId).executeTakeFirst();
}

export async function findAppealById(db: Db, id: string): Promise<AppealRow | undefined> {
  return db.selectFrom('appeals').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findAppealByIdempotencyKey(db: Db, key: string): Promise<AppealRow | undefined> {
  return db.selectFrom('appeals').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

export async function findAttachments(db: Db, appealId: string): Promise<AttachmentRow[]> {
  return db.selectFrom('appeal_attachments').selectAll().where('appeal_id', '=', appealId).orderBy('position').execute();
}

export async function insertAppeal(
  trx: Db,
  appeal: AppealRow,
  attachments: ReadonlyArray<Omit<AttachmentRow, 'id' | 'appeal_id' | 'purged_at'>>,
): Promise<void> {
  await trx.insertInto('appeals').values(appeal).execute();
  if (attachments.length === 0) return;
  await trx
    .insertInto('appeal_attachments')
    .values(attachments.map((attachment) => ({ ...attachment, id: randomUUID(), appeal_id: appeal.id, purged_at: null })))
    .execute();
}

/** The columns a decision sets. */
export type AppealDecisionRow = Pick<
  AppealRow,
  | 'reduced_charge_pence'
  | 'verification_code'
  | 'reduced_held_until'
  | 'reduced_payable_until'
  | 'appeals_service_until'
  | 'charter_outcome'
> & {
  status: AppealOutcome;
  decision_reasons: string;
  decided_at: string;
  decided_by: string;
};

/**
 * The other charges of a registration issued before this one, newest first, with their appeals:
 * the Appeals Charter reduces a charge only the first time for the vehicle.
 */
export async function findEarlierCharges(
  db: Db,
  pcn: { id: string; vehicle_registration: string; pcn_number: string },
): Promise<EarlierCharge[]> {
  const rows = await db
    .selectFrom('pcns')
    .innerJoin('car_parks', 'car_parks.id', 'pcns.car_park_id')
    .leftJoin('appeals', 'appeals.pcn_id', 'pcns.id')
    .select([
      'pcns.id',
      'pcns.pcn_number',
      'pcns.issued_at',
      'pcns.offence_type',
      'pcns.status',
      'car_parks.name as car_park_name',
      'appeals.reference as appeal_reference',
      'appeals.status as appeal_status',
      'appeals.charter_outcome',
    ])
    .where('pcns.vehicle_registration', '=', pcn.vehicle_registration)
    .where('pcns.id', '!=', pcn.id)
    // Numbers are given in order, zero-padded: a smaller one was issued before.
    .where('pcns.pcn_number', '<', pcn.pcn_number)
    .orderBy('pcns.pcn_number', 'desc')
    .limit(50)
    .execute();
  return rows.map((row) => ({
    pcnId: row.id,
    pcnNumber: pcnTitle(row.pcn_number),
    issuedAt: row.issued_at,
    carParkName: row.car_park_name,
    contravention: OFFENCE_TYPE_LABELS[row.offence_type] ?? row.offence_type,
    status: row.status,
    appeal:
      row.appeal_reference && row.appeal_status
        ? {
            reference: row.appeal_reference,
            status: row.appeal_status,
            charterOutcome: row.charter_outcome,
          }
        : null,
  }));
}

/** Marks an open late appeal as considered; false when it was not (decided or considered meanwhile). */
export async function recordConsidered(trx: Db, appealId: string, at: string, by: string): Promise<boolean> {
  const result = await trx
    .updateTable('appeals')
    .set({ considered_at: at, considered_by: by })
    .where('id', '=', appealId)
    .where('status', '=', 'OPEN')
    .where('is_late', '=', true)
    .where('considered_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The motorist withdraws their open appeal (decision 0044); false when it was no longer open (decided or withdrawn meanwhile). */
export async function recordWithdrawal(
  trx: Db,
  appealId: string,
  withdrawal: Pick<AppealRow, 'withdrawn_at' | 'reduced_held_until'>,
): Promise<boolean> {
  const result = await trx
    .updateTable('appeals')
    .set({ ...withdrawal, status: 'WITHDRAWN' })
    .where('id', '=', appealId)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records the decision on an open appeal; false when it was no longer open (decided meanwhile). */
export async function recordDecision(trx: Db, appealId: string, decision: AppealDecisionRow): Promise<boolean> {
  const result = await trx.updateTable('appeals').set(decision).where('id', '=', appealId).where('status', '=', 'OPEN').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function isVerificationCodeTaken(db: Db, code: string): Promise<boolean> {
  const row = await db.selectFrom('appeals').select('id').where('verification_code', '=', code).executeTakeFirst();
  return row !== undefined;
}

export function toAttachment(row: AttachmentRow): AppealAttachment {
  return {
    id: row.id,
    originalName: row.original_name,
    mimeType: row.mime_type,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    purgedAt: row.purged_at,
  };
}

const SORT_COLUMNS: Record<
  AppealSortKey,
  'appeals.respond_by' | 'appeals.received_at' | 'appeals.reference' | 'pcns.vehicle_registration' | 'appeals.status'
> = {
  respondBy: 'appeals.respond_by',
  receivedAt: 'appeals.received_at',
  reference: 'appeals.reference',
  vehicleRegistration: 'pcns.vehicle_registration',
  status: 'appeals.status',
};

function listQuery(db: Db, query: Pick<AppealListQuery, 'status' | 'search'>) {
  let q = db
    .selectFrom('appeals')
    .innerJoin('pcns', 'pcns.id', 'appeals.pcn_id')
    .innerJoin('car_parks', 'car_parks.id', 'pcns.car_park_id');
  if (query.status) q = q.where('appeals.status', '=', query.status);
  const search = query.search?.trim();
  if (search) {
    const upper = search.toUpperCase().replace(/\s+/g, '');
    const digits = /^(?:APL-?|PCN-?)?(\d{1,10})$/.exec(upper)?.[1];
    q = q.where((eb) =>
      eb.or([
        eb('appeals.reference', '=', upper),
        eb('pcns.vehicle_registration', '=', upper),
        eb(sql`lower(appeals.appellant_name)`, 'like', `%${search.toLowerCase().replace(/[%_\\]/g, '')}%`),
        ...(digits ? [eb('pcns.pcn_number', '=', digits.padStart(8, '0')), eb('appeals.verification_code', '=', digits)] : []),
      ]),
    );
  }
  return q;
}

/** The Appeals queue: by default open appeals' nearest respond-by date first. */
export async function listAppeals(db: Db, query: AppealListQuery): Promise<{ items: AppealListItem[]; total: number }> {
  const sort = query.sort ?? 'respondBy';
  const order = query.order ?? (sort === 'receivedAt' ? 'desc' : 'asc');
  const { total } = await listQuery(db, query)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await listQuery(db, query)
    .select([
      'appeals.id',
      'appeals.reference',
      'appeals.pcn_id',
      'appeals.appellant_name',
      'appeals.reason',
      'appeals.received_at',
      'appeals.respond_by',
      'appeals.status',
      'appeals.is_late',
      'appeals.channel',
      'appeals.verification_code',
      'pcns.pcn_number',
      'pcns.vehicle_registration',
      'car_parks.name as car_park_name',
    ])
    .orderBy(SORT_COLUMNS[sort], order)
    .orderBy('appeals.id')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return { items: rows.map(toListItem), total: Number(total) };
}

/** Every appeal matching the filters, for the CSV export (no page). */
export async function listAllAppeals(db: Db, query: AppealListQuery): Promise<AppealListItem[]> {
  const { items } = await listAppeals(db, { ...query, page: 1, limit: 100_000 });
  return items;
}

function toListItem(
  row: Pick<
    AppealRow,
    | 'id'
    | 'reference'
    | 'pcn_id'
    | 'appellant_name'
    | 'reason'
    | 'received_at'
    | 'respond_by'
    | 'status'
    | 'is_late'
    | 'channel'
    | 'verification_code'
  > &
    Pick<Selectable<PcnsTable>, 'pcn_number' | 'vehicle_registration'> & { car_park_name: string },
): AppealListItem {
  return {
    id: row.id,
    reference: row.reference,
    pcnId: row.pcn_id,
    pcnNumber: pcnTitle(row.pcn_number),
    vehicleRegistration: row.vehicle_registration,
    carParkName: row.car_park_name,
    appellantName: row.appellant_name,
    reason: row.reason,
    receivedAt: row.received_at,
    respondBy: row.respond_by,
    status: row.status,
    isLate: row.is_late,
    channel: row.channel,
    verificationCode: row.verification_code,
  };
}

/** The appeal whole, with its charge's number, registration and car park. */
export async function loadAppeal(db: Db, row: AppealRow): Promise<Appeal> {
  const [pcn, attachments, decider] = await Promise.all([
    db
      .selectFrom('pcns')
      .innerJoin('car_parks', 'car_parks.id', 'pcns.car_park_id')
      .select(['pcns.id', 'pcns.pcn_number', 'pcns.vehicle_registration', 'pcns.car_park_terms_id', 'car_parks.name'])
      .where('pcns.id', '=', row.pcn_id)
      .executeTakeFirstOrThrow(),
    findAttachments(db, row.id),
    row.decided_by
      ? db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', row.decided_by).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  const [earlierCharges, terms] = await Promise.all([
    findEarlierCharges(db, pcn),
    findNoticeTerms(db, { operatorTermsId: null, carParkTermsId: pcn.car_park_terms_id }),
  ]);
  return {
    id: row.id,
    reference: row.reference,
    pcnId: row.pcn_id,
    pcnNumber: pcnTitle(pcn.pcn_number),
    vehicleRegistration: pcn.vehicle_registration,
    carParkName: pcn.name,
    receivedAt: row.received_at,
    respondBy: row.respond_by,
    status: row.status,
    isLate: row.is_late,
    consideredAt: row.considered_at,
    withdrawal:
      row.status === 'WITHDRAWN' && row.withdrawn_at !== null
        ? { withdrawnAt: row.withdrawn_at, reducedHeldUntil: row.reduced_held_until }
        : null,
    channel: row.channel,
    appellant: { name: row.appellant_name, email: row.appellant_email || null, address: row.appellant_address },
    wasDriver: row.was_driver,
    driver:
      row.was_driver || (row.driver_name === '' && row.driver_address === '')
        ? null
        : { name: row.driver_name, address: row.driver_address },
    reason: row.reason,
    text: row.text,
    attachments: attachments.map(toAttachment),
    decision:
      row.status === 'OPEN' || row.status === 'WITHDRAWN' || row.decided_at === null
        ? null
        : {
            outcome: row.status,
            reasons: row.decision_reasons ?? '',
            reducedChargePence: row.reduced_charge_pence,
            decidedAt: row.decided_at,
            decidedBy: decider ? `${decider.first_name} ${decider.last_name}`.trim() : null,
            verificationCode: row.verification_code,
            reducedHeldUntil: row.reduced_held_until,
            reducedPayableUntil: row.reduced_payable_until,
            appealsServiceUntil: row.appeals_service_until,
            charterOutcome: row.charter_outcome,
          },
    earlierCharges,
    chargePence: terms.carPark?.chargePence ?? null,
  };
}
