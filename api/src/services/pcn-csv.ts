import { cancellationReasonLabel, OFFENCE_TYPE_LABELS, PCN_STATUS_LABELS, pcnTitle } from '@parkpatrol/shared';
import type { PcnExportRow } from '../repositories/pcn-list.ts';
import { csvDate, csvTime } from '../domain/csv-cells.ts';

/**
 * The columns of the Manage PCNs export: what an operator reads in a spreadsheet. Times are on
 * the UK clock, day first (csvTime); the keeper notice's last posting day is a calendar date
 * (csvDate); an empty cell means not recorded (or, for the posting day, not applicable; for the
 * cancellation reason, a charge not cancelled).
 */
export const PCN_CSV_COLUMNS = [
  'PCN number',
  'Status',
  'Cancellation reason',
  'Cancellation note',
  'Vehicle registration',
  'Car park',
  'Offence type',
  'Location',
  'Description',
  'First seen',
  'Issued',
  'Filed by',
  'Officer email',
  'Photos',
  'Keeper notice post by',
  'Submitted',
  'Last updated',
  'Admin notes',
] as const;

export function pcnCsvRecord(row: PcnExportRow): string[] {
  const filedBy = row.creator_first_name === null ? '' : `${row.creator_first_name} ${row.creator_last_name ?? ''}`.trim();
  return [
    pcnTitle(row.pcn_number),
    PCN_STATUS_LABELS[row.status] ?? row.status,
    row.status === 'CANCELLED' ? cancellationReasonLabel(row.cancellation_reason) : '',
    row.cancellation_note ?? '',
    row.vehicle_registration,
    row.car_park_name ?? '',
    OFFENCE_TYPE_LABELS[row.offence_type] ?? row.offence_type,
    row.location,
    row.description,
    csvTime(row.observed_at),
    csvTime(row.issued_at),
    filedBy,
    row.creator_email ?? '',
    String(Number(row.photo_count ?? 0)),
    csvDate(row.keeper_post_by),
    csvTime(row.created_at),
    csvTime(row.updated_at),
    row.admin_notes ?? '',
  ];
}
