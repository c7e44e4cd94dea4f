import type { PcnStatus } from './pcn-status.ts';

/**
 * Evidence retention. UK GDPR's storage limitation: photos of vehicles are personal
 * data, kept no longer than the notice needs them. The clock starts when a notice reaches one of
 * these statuses, all final, so nothing can reopen it afterwards. A notice under appeal or in any
 * other open status is never purged.
 */
export const EVIDENCE_RETENTION_CLOSED_STATUSES = ['PAID', 'CANCELLED', 'REJECTED'] as const satisfies readonly PcnStatus[];

export const DEFAULT_EVIDENCE_RETENTION_DAYS = 180;

export function isRetentionClosedStatus(status: PcnStatus): boolean {
  return (EVIDENCE_RETENTION_CLOSED_STATUSES as readonly PcnStatus[]).includes(status);
}

/** What every screen, the audit trail and the evidence pack say in place of removed photos. */
export const PHOTOS_PURGED_TEXT = 'Photos removed under the retention policy';

/** The notice with its date, e.g. 'Photos removed under the retention policy on 3 Jun 2026.' */
export function photosPurgedNotice(formattedDate: string): string {
  return `${PHOTOS_PURGED_TEXT} on ${formattedDate}.`;
}
