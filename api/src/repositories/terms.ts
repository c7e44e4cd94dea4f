import { randomUUID } from 'node:crypto';
import {
  operatorTermsFromStored,
  type CarPark,
  type CarParkTerms,
  type NoticeTerms,
  type OperatorSettings,
  type OperatorTerms,
  type TermsChange,
} from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { CarParksTable, OperatorTermsTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';

/**
 * The operator's and the car parks' terms as histories (decision 0017): the newest row is in
 * force, every row says who changed what, and a notice points at the rows in force when it was
 * issued.
 */
export type TermsActor = { id: string | null; name: string };
export type TermsDiff = Record<string, { from: unknown; to: unknown }>;

/** What differs between two sets of terms, field by field; {} when nothing does. */
export function diffTerms<T extends object>(before: T | null, after: T): TermsDiff {
  const changes: TermsDiff = {};
  for (const [field, to] of Object.entries(after)) {
    const from = before ? (before as Record<string, unknown>)[field] : null;
    if (from !== to) changes[field] = { from: from ?? null, to };
  }
  return changes;
}

type TermsRow = Pick<Selectable<OperatorTermsTable>, 'id' | 'terms' | 'changes' | 'actor_name' | 'created_at'>;

function toChange(row: TermsRow): TermsChange {
  return { id: row.id, actorName: row.actor_name, changes: JSON.parse(row.changes) as TermsDiff, createdAt: row.created_at };
}

export async function findOperatorSettings(db: Db): Promise<OperatorSettings | null> {
  const row = await db.selectFrom('operator_terms').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(1).executeTakeFirst();
  if (!row) return null;
  return { ...operatorTermsFromStored(JSON.parse(row.terms) as OperatorTerms), updatedAt: row.created_at, updatedBy: row.actor_name };
}

export async function listOperatorTermsChanges(db: Db, limit = 20): Promise<TermsChange[]> {
  const rows = await db.selectFrom('operator_terms').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toChange);
}

export async function insertOperatorTerms(trx: Db, input: { terms: OperatorTerms; changes: TermsDiff; actor: TermsActor; now: string }) {
  await trx
    .insertInto('operator_terms')
    .values({
      id: randomUUID(),
      terms: JSON.stringify(input.terms),
      changes: JSON.stringify(input.changes),
      actor_id: input.actor.id,
      actor_name: input.actor.name,
      created_at: input.now,
    })
    .execute();
}

/**
 * What a car park's history row keeps: the terms its notices print, and what no notice prints but
 * the audit must show: the stay rules (consideration and grace periods, whether a stay applies by
 * default), the reason for periods shorter than the Single Code's minimums and whether the land is
 * relevant land (Schedule 4, paragraph 3). Rows written before the stay rules were kept lack them.
 */
export type CarParkTermsRecord = CarParkTerms &
  Pick<CarPark, 'minimumsOverrideReason' | 'relevantLand'> &
  Partial<Pick<CarPark, 'considerationMinutes' | 'graceMinutes' | 'stayAppliesByDefault'>>;

/** The terms a notice prints, out of a car park or a history row that keeps more. */
export function printedCarParkTerms(terms: CarParkTerms): CarParkTerms {
  const { chargePence, reducedChargePence, reducedWithinDays, signageTerms, jurisdiction } = terms;
  return { chargePence, reducedChargePence, reducedWithinDays, signageTerms, jurisdiction };
}

export function carParkTermsOf(row: Selectable<CarParksTable>): CarParkTerms {
  return {
    chargePence: row.charge_pence,
    reducedChargePence: row.reduced_charge_pence,
    reducedWithinDays: row.reduced_within_days,
    signageTerms: row.signage_terms,
    jurisdiction: row.jurisdiction,
  };
}

export async function insertCarParkTerms(
  trx: Db,
  input: { carParkId: string; terms: CarParkTermsRecord; changes: TermsDiff; actor: TermsActor; now: string },
) {
  await trx
    .insertInto('car_park_terms')
    .values({
      id: randomUUID(),
      car_park_id: input.carParkId,
      terms: JSON.stringify(input.terms),
      changes: JSON.stringify(input.changes),
      actor_id: input.actor.id,
      actor_name: input.actor.name,
      created_at: input.now,
    })
    .execute();
}

export async function listCarParkTermsChanges(db: Db, carParkId: string, limit = 20): Promise<TermsChange[]> {
  const rows = await db
    .selectFrom('car_park_terms')
    .selectAll()
    .where('car_park_id', '=', carParkId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toChange);
}

/**
 * The terms rows in force at an instant: the newest of each written no later than it. A notice
 * sent from a phone hours after it was issued still gets the terms of its issue.
 */
export async function findTermsInForce(
  trx: Db,
  input: { carParkId: string; at: string },
): Promise<{ operatorTermsId: string | null; carParkTermsId: string | null }> {
  const [operator, carPark] = await Promise.all([
    trx
      .selectFrom('operator_terms')
      .select('id')
      .where('created_at', '<=', input.at)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),
    trx
      .selectFrom('car_park_terms')
      .select('id')
      .where('car_park_id', '=', input.carParkId)
      .where('created_at', '<=', input.at)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { operatorTermsId: operator?.id ?? null, carParkTermsId: carPark?.id ?? null };
}

export async function findNoticeTerms(
  db: Db,
  ids: { operatorTermsId: string | null; carParkTermsId: string | null },
): Promise<NoticeTerms> {
  const [operator, carPark] = await Promise.all([
    ids.operatorTermsId
      ? db.selectFrom('operator_terms').select('terms').where('id', '=', ids.operatorTermsId).executeTakeFirst()
      : undefined,
    ids.carParkTermsId
      ? db.selectFrom('car_park_terms').select('terms').where('id', '=', ids.carParkTermsId).executeTakeFirst()
      : undefined,
  ]);
  return {
    operator: operator ? operatorTermsFromStored(JSON.parse(operator.terms) as OperatorTerms) : null,
    carPark: carPark ? printedCarParkTerms(JSON.parse(carPark.terms) as CarParkTerms) : null,
  };
}

/** Points a notice at the terms in force when it was issued (its device time, else now). */
export async function storeNoticeTerms(trx: Db, pcnId: string): Promise<void> {
  const row = await trx
    .selectFrom('pcns')
    .select(['car_park_id', 'issued_at', 'created_at', 'operator_terms_id', 'car_park_terms_id'])
    .where('id', '=', pcnId)
    .executeTakeFirst();
  if (!row) return;
  const inForce = await findTermsInForce(trx, { carParkId: row.car_park_id, at: row.issued_at ?? row.created_at });
  if (inForce.operatorTermsId === row.operator_terms_id && inForce.carParkTermsId === row.car_park_terms_id) return;
  await trx
    .updateTable('pcns')
    .set({ operator_terms_id: inForce.operatorTermsId, car_park_terms_id: inForce.carParkTermsId })
    .where('id', '=', pcnId)
    .execute();
}
