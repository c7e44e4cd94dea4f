import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

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
