import {
  fieldErrors,
  KEEPER_REPLY_COLUMNS,
  KEEPER_REPLY_OUTCOMES,
  keeperInputSchema,
  keeperReplyEventDay,
  normaliseChargeReference,
  normaliseRegistration,
  ukDate,
  type KeeperReplyImport,
  type KeeperReplyResult,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { recordKeeperIn } from './record-keeper.ts';
import { readCsvRows } from '../services/csv-import.ts';

const MAX_ROWS = 2000;
/**
 * Rows committed together. A transaction per row made 2,000 rows 2,000 synchronous commits (each
 * waits for the disk: synchronous=FULL) with the event loop never let go: /api/health waited
 * 11 s. One transaction per batch commits once per 100 rows, and the loop is let go between
 * batches, so other requests are answered; a batch holds SQLite's writer for a fraction of a
 * second, and a failing batch takes back only its own rows.
 */
const BATCH_ROWS = 100;
const YIELD_MS = 10;
const REQUIRED_COLUMNS = ['reference', 'registration'] as const;

type ReplyRow = Partial<Record<(typeof KEEPER_REPLY_COLUMNS)[number], string>>;

/**
 * A CSV of keeper replies (the DVLA's answers to keeper enquiries), matched to notices by our
 * reference and the registration, and by the event date when the row has one. Only a row that
 * matches on every count and names a keeper is applied; a mismatch, an unknown reference, a
 * 'no keeper' answer or an unreadable row is listed with why, and changes nothing.
 */
export async function importKeeperReplies(db: Db, csv: string, user: AuthUser, now: Date): Promise<KeeperReplyImport> {
  const rows = readCsvRows(csv, { columns: KEEPER_REPLY_COLUMNS, required: REQUIRED_COLUMNS, maxRows: MAX_ROWS });
  const results: KeeperReplyResult[] = [];
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    await db.transaction().execute(async (trx) => {
      for (const [offset, row] of batch.entries()) results.push(await importRow(trx, start + offset + 1, row, user, now));
    });
    // Let go of the event loop for a few milliseconds, not one turn: a request that arrived meanwhile
    // needs several turns (read, answer, write), and each batch would otherwise let it take just one.
    await new Promise((resolve) => setTimeout(resolve, YIELD_MS));
  }
  const counts = Object.fromEntries(KEEPER_REPLY_OUTCOMES.map((outcome) => [outcome, 0])) as KeeperReplyImport['counts'];
  for (const result of results) counts[result.outcome]++;
  return { results, counts };
}

async function importRow(db: Db, row: number, reply: ReplyRow, user: AuthUser, now: Date): Promise<KeeperReplyResult> {
  const reference = reply.reference ?? '';
  const registration = normaliseRegistration(reply.registration ?? '');
  const result = (outcome: KeeperReplyResult['outcome'], message: string, pcnId: string | null = null): KeeperReplyResult => ({
    row,
    reference,
    registration,
    outcome,
    message,
    pcnId,
  });
  const number = normaliseChargeReference(reference);
  if (!number) return result('INVALID', 'The reference is not one of ours (PCN- and up to 8 digits)');
  const pcn = await db
    .selectFrom('pcns')
    .select(['id', 'pcn_number', 'vehicle_registration', 'observed_at', 'issued_at', 'created_at'])
    .where('pcn_number', '=', number)
    .executeTakeFirst();
  if (!pcn) return result('NOT_FOUND', `No notice has the reference PCN-${number}`);
  if (registration !== pcn.vehicle_registration) {
    return result('MISMATCH', `The registration ${registration || '(none)'} is not the notice's (${pcn.vehicle_registration})`, pcn.id);
  }
  const eventDate = reply.event_date?.trim();
  if (eventDate) {
    const eventDays = new Set([pcn.observed_at, pcn.issued_at, pcn.created_at].filter((at): at is string => at !== null).map(ukDate));
    if (!eventDays.has(keeperReplyEventDay(eventDate))) {
      return result('MISMATCH', `The event date ${eventDate} is not the day of the notice (${[...eventDays].join(' or ')})`, pcn.id);
    }
  }
  const noKeeper = reply.no_keeper_reason?.trim();
  if (noKeeper) return result('NO_KEEPER', `No keeper: ${noKeeper}. Nothing was recorded.`, pcn.id);
  const parsed = keeperInputSchema.safeParse({
    title: reply.title ?? '',
    firstNames: reply.first_names ?? '',
    lastName: reply.last_name ?? '',
    companyName: reply.company_name ?? '',
    addressLines: [reply.address_line_1, reply.address_line_2, reply.address_line_3, reply.address_line_4].map((line) => line ?? ''),
    postcode: reply.postcode ?? '',
    make: reply.make ?? '',
    model: reply.model ?? '',
    colour: reply.colour ?? '',
    // A hire or lease firm says so in its reply; blank (or no column) is the registered keeper.
    keeperType: reply.keeper_type?.trim() ? reply.keeper_type.trim().toUpperCase() : 'REGISTERED_KEEPER',
  });
  if (!parsed.success) {
    const problems = fieldErrors(parsed.error);
    return result('INVALID', Object.values(problems)[0] ?? 'The keeper details cannot be read', pcn.id);
  }
  const outcome = await recordKeeperIn(db, { pcnId: pcn.id, keeper: parsed.data, source: 'KEEPER_REPLY', confirm: 'keep', user, now });
  return outcome === 'APPLIED'
    ? result('APPLIED', 'Keeper recorded: confirm the vehicle against the photos before a letter', pcn.id)
    : result('UNCHANGED', 'The same keeper was already recorded', pcn.id);
}
