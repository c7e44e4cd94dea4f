import type { Hirer, LetterPosting, NamedDriver, NamedDriverSource, PostalParty } from '@parkpatrol/shared';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { PcnHirersTable, PcnNamedDriversTable } from '../db/schema.ts';

/**
 * The hirer a hire firm named and the driver a keeper or an appeal named: who a notice to hirer
 * or a notice to the named driver goes to, and that letter's posting. Personal data: admins only.
 */
type PartyRow = Selectable<PcnHirersTable> | Selectable<PcnNamedDriversTable>;

function partyOf(row: PartyRow): PostalParty & { notice: LetterPosting; recordedBy: string; recordedAt: string } {
  return {
    title: row.title,
    firstNames: row.first_names,
    lastName: row.last_name,
    companyName: row.company_name,
    addressLines: JSON.parse(row.address_lines) as string[],
    postcode: row.postcode,
    notice: { postedOn: row.notice_posted_on, givenOn: row.notice_given_on, proofReference: row.notice_proof },
    recordedBy: row.recorded_by,
    recordedAt: row.updated_at,
  };
}

function partyValues(party: PostalParty) {
  return {
    title: party.title,
    first_names: party.firstNames,
    last_name: party.lastName,
    company_name: party.companyName,
    address_lines: JSON.stringify(party.addressLines),
    postcode: party.postcode,
  };
}

/** The hirer without its posting window, which the caller works out from documentsGivenOn. */
export type StoredHirer = Omit<Hirer, 'window'>;

export async function findHirer(db: Db, pcnId: string): Promise<StoredHirer | null> {
  const row = await db.selectFrom('pcn_hirers').selectAll().where('pcn_id', '=', pcnId).executeTakeFirst();
  if (!row) return null;
  return { ...partyOf(row), documentsGivenOn: row.documents_given_on, hireAgreementReference: row.hire_agreement_reference };
}

export async function findNamedDriver(db: Db, pcnId: string): Promise<NamedDriver | null> {
  const row = await db.selectFrom('pcn_named_drivers').selectAll().where('pcn_id', '=', pcnId).executeTakeFirst();
  if (!row) return null;
  return { ...partyOf(row), source: row.source };
}

/** Which of these notices have a named driver: the keeper queue does not pursue their keepers. */
export async function pcnIdsWithNamedDriver(db: Db, pcnIds: readonly string[]): Promise<Set<string>> {
  if (pcnIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('pcn_named_drivers')
    .select('pcn_id')
    .where('pcn_id', 'in', [...pcnIds])
    .execute();
  return new Set(rows.map((row) => row.pcn_id));
}

/** The stored columns a letter was addressed with: the title is left out, so fixing it keeps the posting. */
function addressedTo(columns: ReturnType<typeof partyValues>): string {
  return JSON.stringify([columns.first_names, columns.last_name, columns.company_name, columns.address_lines, columns.postcode]);
}

const NO_POSTING = { notice_posted_on: null, notice_given_on: null, notice_proof: null };

/**
 * Stores the hirer, replacing an earlier one. Its recorded posting stays while the letter would
 * still reach the same person at the same address with the same window (a corrected title or hire
 * agreement reference); other names, another address or new documents (a new window) need a new letter.
 */
export async function saveHirer(
  trx: Db,
  input: {
    pcnId: string;
    hirer: PostalParty & { documentsGivenOn: string; hireAgreementReference: string };
    recordedBy: string;
    now: string;
  },
): Promise<void> {
  const before = await trx.selectFrom('pcn_hirers').selectAll().where('pcn_id', '=', input.pcnId).executeTakeFirst();
  const sameLetter =
    before !== undefined &&
    addressedTo(before) === addressedTo(partyValues(input.hirer)) &&
    before.documents_given_on === input.hirer.documentsGivenOn;
  const values = {
    ...partyValues(input.hirer),
    hire_agreement_reference: input.hirer.hireAgreementReference,
    documents_given_on: input.hirer.documentsGivenOn,
    ...(!sameLetter && NO_POSTING),
    recorded_by: input.recordedBy,
    updated_at: input.now,
  };
  await trx
    .insertInto('pcn_hirers')
    .values({ pcn_id: input.pcnId, ...values, created_at: input.now })
    .onConflict((oc) => oc.column('pcn_id').doUpdateSet(values))
    .execute();
}

/**
 * Stores the named driver, replacing an earlier one. Its recorded posting stays while the letter
 * would still reach the same person at the same address (a corrected title, or who named them); a
 * new name or address needs a new letter.
 */
export async function saveNamedDriver(
  trx: Db,
  input: { pcnId: string; driver: PostalParty & { source: NamedDriverSource }; recordedBy: string; now: string },
): Promise<void> {
  const before = await trx.selectFrom('pcn_named_drivers').selectAll().where('pcn_id', '=', input.pcnId).executeTakeFirst();
  const sameLetter = before !== undefined && addressedTo(before) === addressedTo(partyValues(input.driver));
  const values = {
    ...partyValues(input.driver),
    source: input.driver.source,
    ...(!sameLetter && NO_POSTING),
    recorded_by: input.recordedBy,
    updated_at: input.now,
  };
  await trx
    .insertInto('pcn_named_drivers')
    .values({ pcn_id: input.pcnId, ...values, created_at: input.now })
    .onConflict((oc) => oc.column('pcn_id').doUpdateSet(values))
    .execute();
}

/** Records a letter's posting; false when it was already recorded (nothing changes the second time). */
export async function recordLetterPosting(
  trx: Db,
  input: { table: 'pcn_hirers' | 'pcn_named_drivers'; pcnId: string; postedOn: string; givenOn: string; proof: string | null },
): Promise<boolean> {
  const result = await trx
    .updateTable(input.table)
    .set({ notice_posted_on: input.postedOn, notice_given_on: input.givenOn, notice_proof: input.proof })
    .where('pcn_id', '=', input.pcnId)
    .where('notice_posted_on', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
