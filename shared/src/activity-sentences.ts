import { pcnTitle } from './messages.ts';
import { PCN_STATUS_LABELS, type PcnStatus } from './pcn-status.ts';

/**
 * Recent activity written as sentences: 'Ada Admin moved PCN-00000006 from
 * Approved to Issued', with the PCN as its own part so a screen can make it a link.
 */

/** What the API records for a status change, and the only format parseStatusChange reads. */
export function statusChangeDescription(pcnNumber: string, from: string, to: string): string {
  return `PCN ${pcnNumber}: ${from} -> ${to}`;
}

export function parseStatusChange(description: string | null): { from: string; to: string } | null {
  const match = /^PCN \S+: (\S+) -> (\S+)$/.exec(description ?? '');
  return match ? { from: match[1]!, to: match[2]! } : null;
}

function statusLabel(status: string): string {
  return PCN_STATUS_LABELS[status as PcnStatus] ?? status;
}

/** What the API records as activity, for analytics and the recent-activity list. */
export const ACTIVITY_TYPES = [
  'LOGIN',
  'LOGOUT',
  'PCN_CREATED',
  'PCN_VIEWED',
  'PCN_EDITED',
  'PCN_DELETED',
  'PCN_STATUS_CHANGED',
  'ONBOARDING_SENT',
  'PASSWORD_RESET',
  'EMAIL_CHANGED',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export type ActivitySentence = {
  /** The text before the PCN, or the whole sentence when there is no PCN. */
  before: string;
  /** 'PCN-00000006', when the activity concerns a PCN that still exists. */
  pcn: { id: string; title: string } | null;
  after: string;
};

const PCN_VERBS: Record<string, string> = {
  PCN_CREATED: 'filed',
  PCN_VIEWED: 'viewed',
  PCN_EDITED: 'edited',
  PCN_DELETED: 'deleted',
};

/** `actor` is the person's name (or the screen's 'Unknown User'). */
export function describeActivity(
  activity: { activityType: string; description: string | null; pcn?: { id: string; pcnNumber: string } | null },
  actor: string,
): ActivitySentence {
  const pcn = activity.pcn ? { id: activity.pcn.id, title: pcnTitle(activity.pcn.pcnNumber) } : null;
  const change = activity.activityType === 'PCN_STATUS_CHANGED' ? parseStatusChange(activity.description) : null;
  if (change && pcn) return { before: `${actor} moved `, pcn, after: ` from ${statusLabel(change.from)} to ${statusLabel(change.to)}` };
  const verb = PCN_VERBS[activity.activityType];
  if (verb && pcn) return { before: `${actor} ${verb} `, pcn, after: '' };
  switch (activity.activityType) {
    case 'LOGIN':
      return {
        before: `${actor} signed in${activity.description?.includes('access link') ? ' with an access link' : ''}`,
        pcn: null,
        after: '',
      };
    case 'LOGOUT':
      return { before: `${actor} signed out`, pcn: null, after: '' };
    case 'PASSWORD_RESET':
      return { before: `${actor} reset their password`, pcn: null, after: '' };
  }
  // Anything else (an onboarding email, a deleted PCN): the recorded words, after the name.
  return { before: activity.description ? `${actor}: ${activity.description}` : actor, pcn: null, after: '' };
}
