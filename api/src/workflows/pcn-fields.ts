import type { PcnRow } from '../repositories/pcn-rows.ts';

/** The editable fields of a stored PCN, in the API's names, for diffs and the merged view of an edit. */
export function fieldsOf(row: PcnRow) {
  return {
    vehicleRegistration: row.vehicle_registration,
    carParkId: row.car_park_id,
    offenceType: row.offence_type,
    description: row.description,
    location: row.location,
    observedAt: row.observed_at,
    firstSeenAt: row.first_seen_at,
    issuedAt: row.issued_at,
    stayApplies: row.stay_applies,
    duplicateReason: row.duplicate_reason,
    noticeServedBy: row.notice_served_by,
    noticeServedAt: row.notice_served_at,
  };
}
