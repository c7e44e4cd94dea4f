import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { PCN_CSV_COLUMNS, pcnCsvRecord } from '../domain/pcn-csv.ts';
import type { PcnRow } from '../repositories/pcns.ts';

/**
 * PCN rows as a CSV download, produced as the client reads it (backpressure reaches the
 * database reads): a header row, csv-stringify's quoting, and a cell that starts with =, +, -,
 * @, a tab or a carriage return escaped with a leading quote, so a spreadsheet never runs it as
 * a formula (OWASP CSV injection).
 */
export function pcnCsvStream(rows: AsyncIterable<PcnRow>): ReadableStream<Uint8Array> {
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield pcnCsvRecord(row);
    })(),
  );
  const csv = stringify({ header: true, columns: [...PCN_CSV_COLUMNS], escape_formulas: true, record_delimiter: 'windows' });
  // A failed read ends the download short, visibly, rather than as a file that looks complete.
  records.on('error', (error) => csv.destroy(error));
  return Readable.toWeb(records.pipe(csv)) as ReadableStream<Uint8Array>;
}
