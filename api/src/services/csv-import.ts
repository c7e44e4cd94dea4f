import { parse } from 'csv-parse/sync';
import { AppError } from '../http/app-error.ts';

/**
 * A CSV an admin or landowner uploads (keeper replies, agency updates, permits), read the one way
 * every import reads it: a header line whose names are matched without regard to case or spacing
 * ('Vehicle Registration' is `vehicle_registration`), blank lines skipped, cells trimmed. A file
 * that cannot be read, has no rows, lacks a required column or is too long is refused whole with
 * a 400 naming the `csv` field, so nothing of it is applied.
 */
export function readCsvRows<Column extends string>(
  csv: string,
  rules: { columns: readonly Column[]; required: readonly Column[]; maxRows: number },
): Array<Partial<Record<Column, string>>> {
  // The header callback names the columns; which of them are ours is checked below.
  let rows: Array<Partial<Record<Column, string>>>;
  try {
    rows = parse<Record<string, string>>(csv, {
      bom: true,
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase().replace(/\s+/g, '_')),
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }) as Array<Partial<Record<Column, string>>>;
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `The file is not a CSV file we can read: ${(error as Error).message}`, {
      details: { csv: 'The file is not a CSV file we can read' },
    });
  }
  if (rows.length === 0)
    throw new AppError('VALIDATION_FAILED', 'The file has no rows after its header', { details: { csv: 'The file has no rows' } });
  if (rules.required.some((column) => !(column in rows[0]!))) {
    const message = `The file's first line must name its columns: ${rules.columns.join(', ')}`;
    throw new AppError('VALIDATION_FAILED', message, { details: { csv: message } });
  }
  if (rows.length > rules.maxRows) {
    const message = `Import at most ${rules.maxRows.toLocaleString('en-GB')} rows at a time`;
    throw new AppError('VALIDATION_FAILED', message, { details: { csv: message } });
  }
  return rows;
}
