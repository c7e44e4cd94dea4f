import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { ukWallClock } from '../domain/uk-clock.ts';

/**
 * Records as a CSV download, produced as the client reads it (backpressure reaches the database
 * reads): a UTF-8 byte order mark (without it Excel reads 'café' as 'cafÃ©'), a header row,
 * csv-stringify's quoting, and a cell that starts with =, +, -, @, a tab or
 * a carriage return escaped with a leading quote, so a spreadsheet never runs it as a formula
 * (OWASP CSV injection).
 */
export function csvStream(columns: readonly string[], records: AsyncIterable<string[]>): ReadableStream<Uint8Array> {
  const source = Readable.from(neutraliseIndentedFormulas(records));
  const csv = stringify({ bom: true, header: true, columns: [...columns], escape_formulas: true, record_delimiter: 'windows' });
  // A failed read ends the download short, visibly, rather than as a file that looks complete.
  source.on('error', (error) => csv.destroy(error));
  return Readable.toWeb(source.pipe(csv)) as ReadableStream<Uint8Array>;
}

/**
 * csv-stringify's escape_formulas looks at a cell's first character only; some spreadsheets skip
 * leading spaces and tabs and still run '  =HYPERLINK(…)'. Such a cell gets the same leading quote.
 */
export function neutraliseIndentedFormula(cell: string): string {
  return /^[ \t\r\n\u00a0]+[=+\-@]/.test(cell) ? `'${cell}` : cell;
}

async function* neutraliseIndentedFormulas(records: AsyncIterable<string[]>): AsyncGenerator<string[]> {
  for await (const record of records) yield record.map(neutraliseIndentedFormula);
}

/** Each item of `items` as a CSV record. */
export async function* toRecords<T>(items: AsyncIterable<T>, record: (item: T) => string[]): AsyncGenerator<string[]> {
  for await (const item of items) yield record(item);
}

/**
 * An instant as the operator reads it: ISO 8601 on the UK clock with its offset
 * ('2026-11-26T07:17:36+00:00', '2026-06-01T10:00:00+01:00'), which a spreadsheet shows as local
 * time and sorts correctly; '' when not recorded.
 */
export function csvTime(instant: string | null | undefined): string {
  if (!instant) return '';
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return instant;
  const { year, month, day, hour, minute, second, offset } = ukWallClock(date);
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`;
}
