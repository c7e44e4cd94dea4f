import type { PcnStatus } from './pcn-status.ts';

/**
 * Which notices can still have a notice to keeper go out: the deadline queue lists only these.
 * When it must go out is the route's posting window (keeper-liability.ts, decision 0016).
 */
export const KEEPER_NOTICE_OPEN_STATUSES = ['SUBMITTED', 'UNDER_REVIEW', 'APPROVED'] as const satisfies readonly PcnStatus[];

export function isKeeperNoticeOpen(status: PcnStatus): boolean {
  return (KEEPER_NOTICE_OPEN_STATUSES as readonly PcnStatus[]).includes(status);
}
