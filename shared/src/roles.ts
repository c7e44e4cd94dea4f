/** Roles known to the product. The spec says other roles exist but shows only these. */
export const ROLES = ['USER', 'ADMIN', 'SUPER_ADMIN', 'LANDOWNER'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  USER: 'User',
  ADMIN: 'Admin',
  SUPER_ADMIN: 'Super Admin',
  LANDOWNER: 'Landowner',
};

export function isAdminRole(role: string | undefined | null): boolean {
  return role === 'ADMIN' || role === 'SUPER_ADMIN';
}

/**
 * A landowner: the client who hired the operator, signed in to their own car parks' screens
 * only (decision 0042). Never an officer's or an admin's screen.
 */
export function isLandownerRole(role: string | undefined | null): boolean {
  return role === 'LANDOWNER';
}

/** Only a SUPER_ADMIN may create, change or delete ADMIN and SUPER_ADMIN accounts; an ADMIN invites officers and landowners. */
export function canManageRole(actorRole: Role, targetRole: Role): boolean {
  if (actorRole === 'SUPER_ADMIN') return true;
  if (actorRole === 'ADMIN') return targetRole === 'USER' || targetRole === 'LANDOWNER';
  return false;
}
