/**
 * Texts of the admin screens the spec names (Client Onboarding, Analytics Dashboard): column
 * headings, chips, summary cards and the onboarding email's contents list. Written once so the
 * web app and its browser tests read the same words.
 */
export const ADMIN_TEXTS = {
  name: 'Name',
  email: 'Email',
  role: 'Role',
  status: 'Status',
  created: 'Created',
  actions: 'Actions',
  user: 'User',
  message: 'Message',
  active: 'Active',
  inactive: 'Inactive',
  success: 'Success',
  failed: 'Failed',
  cancel: 'Cancel',
  selectAllUsers: 'Select all users',
  totalUsers: 'Total Users',
  activeUsers30d: 'Active Users (30d)',
  totalPcns: 'Total PCNs',
  totalActivities: 'Total Activities',
  logins: 'Logins',
  pcnsSubmitted: 'PCNs Submitted',
  pcnsViewed: 'PCNs Viewed',
  timeOnSite: 'Time on Site',
  lastActivity: 'Last Activity',
  emailWillInclude: 'The email will include:',
} as const;

/** Spec, Client Onboarding dialog: what every onboarding email contains. */
export const ONBOARDING_EMAIL_CONTENTS = [
  'Welcome message and account details',
  'Unique access URL and QR code',
  'System features and capabilities',
  'Assigned car parks (if any)',
  'Help and support information',
] as const;

/** Added to the contents list only when the admin typed notes. */
export const ONBOARDING_EMAIL_NOTES_ITEM = 'Your custom notes';

/** The message shown after a bulk onboarding send (the API words its answer the same way). */
export function bulkOnboardingSummary(succeeded: number, failed: number): string {
  return `Onboarding emails sent: ${succeeded} succeeded, ${failed} failed`;
}

/** A host only the server's own machine can reach: a link to it opens nothing on a phone. */
export function isLocalOnlyUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host === '0.0.0.0' || /^127(\.\d{1,3}){3}$/.test(host);
}

export const ONBOARDING_LINK_TEXTS = {
  /** Said before and after a send to people who were emailed before: one link per person (docs/decisions/0013). */
  earlierLinkStops: (count: number) =>
    count === 1
      ? '1 of them was sent an onboarding email before: sending again stops the earlier link working; only the newest link signs in.'
      : `${count} of them were sent an onboarding email before: sending again stops their earlier links working; only the newest link signs in.`,
  earlierLinkStopped: 'The link sent before no longer works; only this newest one signs in.',
  localAppUrl: (appUrl: string) =>
    `The links in these emails point at ${appUrl}, which only this server's own machine can open: a phone cannot. Set APP_URL to the address people use (for example https://tickets.example.com) and restart the server before sending.`,
} as const;
