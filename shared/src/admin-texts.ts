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
