/** Spec section 9: 'Xh Ym' at 60 minutes or more, else 'Ym'. */
export function formatTimeOnSite(totalMinutes: number): string {
  const minutes = Math.max(0, Math.floor(totalMinutes));
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
  return `${minutes}m`;
}

/** First letter of first name and of last name, as the account button shows. */
export function initialsOf(user: { firstName?: string | null; lastName?: string | null }): string {
  return `${user.firstName?.trim().charAt(0) ?? ''}${user.lastName?.trim().charAt(0) ?? ''}`.toUpperCase();
}

/** Registrations are stored upper-case without spaces (design section 4). */
export function normaliseRegistration(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** PCN numbers are sequential, zero-padded to 8 digits. */
export function formatPcnNumber(sequence: number): string {
  return String(sequence).padStart(8, '0');
}

/** Activity types show with underscores as spaces (spec section 2, Recent Activity). */
export function formatActivityType(type: string): string {
  return type.replace(/_/g, ' ');
}

/** The Manage PCNs export's file name: the day it was made (UTC). */
export function pcnExportFileName(now: Date): string {
  return `pcns-${now.toISOString().slice(0, 10)}.csv`;
}

/** The Manage Users export's file name: the day it was made (UTC). */
export function userExportFileName(now: Date): string {
  return `users-${now.toISOString().slice(0, 10)}.csv`;
}

/** The Appeals queue's export file name: the day it was made (UTC), as the server names it. */
export function appealExportFileName(now: Date): string {
  return `appeals-${now.toISOString().slice(0, 10)}.csv`;
}
