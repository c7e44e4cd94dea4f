import type { PcnAuditAction, PhotoTakenAtSource } from './entities.ts';
import { PHOTOS_PURGED_TEXT } from './evidence-retention.ts';

/**
 * Words for the evidence facts (deadline, clock offset, elapsed times, capture source,
 * audit trail), written once so every screen and its browser tests read the same text.
 */

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const DURATION_UNITS = [
  { ms: DAY_MS, one: 'day', many: 'days' },
  { ms: HOUR_MS, one: 'h', many: 'h' },
  { ms: MINUTE_MS, one: 'min', many: 'min' },
  { ms: SECOND_MS, one: 's', many: 's' },
] as const;

/**
 * An elapsed time in its two largest units, rounded down: '3 min 12 s', '2 h 5 min', '1 day 4 h'.
 * Below a second it reads '0 s'. The sign is ignored: the caller says which way.
 */
export function formatDuration(ms: number): string {
  let rest = Math.floor(Math.abs(ms) / SECOND_MS) * SECOND_MS;
  const parts: string[] = [];
  for (const unit of DURATION_UNITS) {
    const count = Math.floor(rest / unit.ms);
    rest -= count * unit.ms;
    if (count > 0 || parts.length > 0) parts.push(`${count} ${count === 1 ? unit.one : unit.many}`);
    if (parts.length === 2) break;
  }
  const shown = parts.filter((part, index) => index === 0 || !part.startsWith('0 '));
  return shown.length > 0 ? shown.join(' ') : '0 s';
}

/**
 * How far the device's clock was off, from the stored offset (server receipt time minus device
 * time): a negative offset means the device was ahead, so its clock was fast.
 */
export function describeClockOffset(offsetMs: number): string {
  if (Math.abs(offsetMs) < SECOND_MS) return 'in step with the server';
  return `${formatDuration(offsetMs)} ${offsetMs < 0 ? 'fast' : 'slow'}`;
}

/** The admins' warning when the officer's device clock was more than two minutes off. */
export function clockSkewWarningText(offsetMs: number): string {
  return `The officer's device clock was ${describeClockOffset(offsetMs)} when this notice was sent.`;
}

export type KeeperNoticeTimeLeft = { text: string; isOverdue: boolean; wholeDaysLeft: number };

/**
 * What is left before the keeper notice must go out, in whole days rounded down (2 days and 20
 * hours is '2 days left'), 'Less than a day left' in the last 24 hours and 'Overdue' after.
 */
export function keeperNoticeTimeLeft(dueAt: string, now: Date): KeeperNoticeTimeLeft {
  const leftMs = Date.parse(dueAt) - now.getTime();
  if (leftMs < 0) return { text: 'Overdue', isOverdue: true, wholeDaysLeft: 0 };
  const days = Math.floor(leftMs / DAY_MS);
  const text = days === 0 ? 'Less than a day left' : `${days} day${days === 1 ? '' : 's'} left`;
  return { text, isOverdue: false, wholeDaysLeft: days };
}

export const TAKEN_AT_SOURCE_LABELS: Record<PhotoTakenAtSource, string> = {
  camera: 'camera',
  added: 'added on device',
};

export const PCN_AUDIT_ACTION_LABELS: Record<PcnAuditAction, string> = {
  created: 'Created',
  updated: 'Edited',
  image_added: 'Photo added',
  image_removed: 'Photo removed',
  status_changed: 'Status changed',
  notes_changed: 'Admin notes changed',
  deleted: 'Deleted',
  images_purged: PHOTOS_PURGED_TEXT,
  keeper_changed: 'Keeper details changed',
  keeper_notice_posted: 'Notice to keeper posted',
  hirer_recorded: 'Hirer recorded',
  driver_named: 'Driver named',
  letter_posted: 'Letter posted',
  payment_recorded: 'Payment recorded',
  appeal_received: 'Appeal received',
  appeal_decided: 'Appeal decided',
  appeal_considered: 'Late appeal taken into consideration',
  appeal_set_aside: 'Appeal set aside',
  appeal_withdrawn: 'Appeal withdrawn by the motorist',
  refund_recorded: 'Refund recorded',
  collection_stage_changed: 'Collection stage changed',
  debt_recovery_exported: 'Handed to debt recovery',
  debt_recovery_outcome: 'Debt recovery outcome',
  cancellation_requested: 'Landowner asked for cancellation',
  cancellation_request_decided: 'Cancellation request decided',
};

/** The audit trail's field names (the API's camelCase) as people read them. */
export const PCN_AUDIT_FIELD_LABELS: Record<string, string> = {
  pcnNumber: 'PCN number',
  status: 'Status',
  vehicleRegistration: 'Vehicle registration',
  carParkId: 'Car park',
  offenceType: 'Offence type',
  description: 'Description',
  location: 'Location',
  observedAt: 'First seen',
  issuedAt: 'Issued',
  stayApplies: 'Stay applies',
  duplicateReason: 'Reason for a possible duplicate',
  noticeServedBy: 'Notice to driver served',
  noticeServedAt: 'Notice to driver served at',
  firstSeenAt: 'First seen',
  serviceCorrectionReason: 'Reason for correcting the service',
  clockOffsetMs: 'Device clock',
  images: 'Photos',
  image: 'Photo',
  note: 'Note',
  adminNotes: 'Admin notes',
  createdBy: 'Officer',
  retentionDays: 'Retention period (days)',
};

/** A field the table does not know yet still reads as words: 'someNewField' -> 'Some new field'. */
export function auditFieldLabel(field: string): string {
  const known = PCN_AUDIT_FIELD_LABELS[field];
  if (known) return known;
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
