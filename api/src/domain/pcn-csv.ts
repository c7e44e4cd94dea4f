import { OFFENCE_TYPE_LABELS, PCN_STATUS_LABELS, pcnTitle, type OffenceType, type PcnStatus } from '@parkpatrol/shared';
import type { PcnRow } from '../repositories/pcns.ts';

/**
 * The columns of the Manage PCNs export: what an operator reads in a spreadsheet.
 * Times are ISO-8601 in UTC as stored; an empty cell means not recorded.
 */
export const PCN_CSV_COLUMNS = [
  'PCN number',
  'Status',
  'Vehicle registration',
  'Car park',
  'Offence type',
  'Location',
  'Description',
  'First seen',
  'Issued',
  'Filed by',
  'Submitted',
  'Last updated',
  'Admin notes',
] as const;

export function pcnCsvRecord(row: PcnRow): string[] {
  const filedBy = row.creator_first_name === null ? '' : `${row.creator_first_name} ${row.creator_last_name ?? ''}`.trim();
  return [
    pcnTitle(row.pcn_number),
    PCN_STATUS_LABELS[row.status as PcnStatus] ?? row.status,
    row.vehicle_registration,
    row.car_park_name ?? '',
    OFFENCE_TYPE_LABELS[row.offence_type as OffenceType] ?? row.offence_type,
    row.location,
    row.description,
    row.observed_at ?? '',
    row.issued_at ?? '',
    filedBy,
    row.created_at,
    row.updated_at,
    row.admin_notes ?? '',
  ];
}
