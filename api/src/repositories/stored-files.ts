import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** The tables with a column named `C`. */
type TableWith<C extends string> = { [T in keyof Database]: C extends keyof Database[T] ? T : never }[keyof Database];

/**
 * Every table whose rows point at a file in the evidence store, and whether a row marked purged
 * (its file removed under the retention policy, the row kept for its facts) still counts.
 */
const FILE_TABLES = [
  { table: 'pcn_images', unlessPurged: true },
  { table: 'appeal_attachments', unlessPurged: true },
  // A confirmed appeal's attachments keep their pending rows until the pending appeal expires.
  { table: 'pending_appeal_attachments', unlessPurged: false },
  { table: 'sent_documents', unlessPurged: true },
  { table: 'debt_recovery_batches', unlessPurged: false },
  { table: 'letter_batches', unlessPurged: false },
  { table: 'evidence_packs', unlessPurged: false },
] as const satisfies readonly (
  { table: TableWith<'file_name'>; unlessPurged: false } | { table: TableWith<'file_name'> & TableWith<'purged_at'>; unlessPurged: true }
)[];

/** Names per query: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/**
 * Which stored names a row still points at: a notice's photo, an appeal's attachment (pending or
 * not), a document sent, a batch of letters, an evidence pack or a debt recovery batch. The
 * orphan sweep keeps them and removes the rest.
 */
export async function findKnownStoredFileNames(db: Db, fileNames: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let start = 0; start < fileNames.length; start += CHUNK) {
    const chunk = fileNames.slice(start, start + CHUNK);
    const found = await Promise.all(
      FILE_TABLES.map(({ table, unlessPurged }) =>
        db
          // One shape for all: each has file_name, and those that purge have purged_at (checked above).
          .selectFrom(table as 'pcn_images')
          .select('file_name')
          .where('file_name', 'in', chunk)
          .$if(unlessPurged, (query) => query.where('purged_at', 'is', null))
          .execute(),
      ),
    );
    for (const row of found.flat()) if (row.file_name) known.add(row.file_name);
  }
  return known;
}
