import { noticeToDriver, OFFENCE_TYPE_LABELS, pcnTitle, type NoticeToDriverFacts } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { findPcnRowById, periodStartOf } from '../repositories/pcn-rows.ts';
import { hasSentDocument } from '../repositories/sent-documents.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import type { EvidenceStore } from '../services/evidence-storage.ts';
import { storeSentDocument } from '../services/sent-documents.ts';

/**
 * The notice to driver as the officer's phone printed it, kept when the notice is filed
 * (decision 0025). The phone prints from the one template (shared/src/notice-to-driver.ts), the
 * facts it sends and the terms it keeps, before the notice has a number: so it printed the
 * draft reference. The server has the same facts and the terms in force at the time of issue
 * (decision 0017), so it keeps that same document: the facts and the text, with the draft
 * reference, as JSON. Nothing is kept for a drive-off (no notice was given) or where no terms
 * were in force (the phone refuses to print then). Kept once: a second try finds it.
 *
 * A job (`noticeToDriver`), asked for before the filing commits: the upload answers without
 * writing a sixth file, and a crash just after the commit loses no notice. A job for a filing
 * that did not commit finds no notice and keeps nothing. Kept as made by the officer who filed
 * it, dated when the filing was received.
 */
export async function keepNoticeToDriver(
  deps: { db: Db; evidence: EvidenceStore },
  input: { pcnId: string; appUrl: string },
): Promise<void> {
  const row = await findPcnRowById(deps.db, input.pcnId);
  if (!row) return;
  const servedBy = row.notice_served_by;
  if (servedBy !== 'AFFIXED' && servedBy !== 'HANDED') return;
  if (await hasSentDocument(deps.db, row.id, 'NOTICE_TO_DRIVER')) return;
  const terms = await findNoticeTerms(deps.db, { operatorTermsId: row.operator_terms_id, carParkTermsId: row.car_park_terms_id });
  if (!terms.operator || !terms.carPark || terms.carPark.chargePence === null) return;
  const carPark = await deps.db
    .selectFrom('car_parks')
    .select(['address', 'postcode'])
    .where('id', '=', row.car_park_id)
    .executeTakeFirst();
  const printedReference = row.draft_reference ?? pcnTitle(row.pcn_number);
  const facts: NoticeToDriverFacts = {
    reference: printedReference,
    vehicleRegistration: row.vehicle_registration,
    carPark: { name: row.car_park_name ?? '', address: carPark?.address ?? '', postcode: carPark?.postcode ?? '' },
    firstSeenAt: periodStartOf(row),
    servedAt: row.notice_served_at ?? row.issued_at ?? row.created_at,
    servedBy,
    contravention: OFFENCE_TYPE_LABELS[row.offence_type] ?? row.offence_type,
    description: row.description,
    carParkTerms: terms.carPark,
    operator: terms.operator,
    lookupUrl: `${input.appUrl.replace(/\/+$/, '')}/charge`,
  };
  const kept = {
    kind: 'NOTICE_TO_DRIVER',
    pcnNumber: pcnTitle(row.pcn_number),
    draftReference: row.draft_reference,
    facts,
    text: noticeToDriver(facts),
  };
  await storeSentDocument(deps, {
    pcnId: row.id,
    kind: 'NOTICE_TO_DRIVER',
    bytes: new TextEncoder().encode(`${JSON.stringify(kept, null, 2)}\n`),
    mimeType: 'application/json',
    postOn: null,
    reference: row.draft_reference,
    createdBy: { id: row.created_by, name: `${row.creator_first_name ?? ''} ${row.creator_last_name ?? ''}`.trim() },
    now: new Date(row.created_at),
  });
}
