import { canManageRole, SERVER_MESSAGES, type Role } from '@parkpatrol/shared';

export type RuleRefusal = { code: 'FORBIDDEN'; message: string } | null;

type Actor = { id: string; role: Role };
type Target = { id: string; role: Role };

/** Who may create an account of a role: only a SUPER_ADMIN makes admins. */
export function checkCreateUser(actor: Actor, role: Role): RuleRefusal {
  return canManageRole(actor.role, role) ? null : { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotManageRole };
}

/**
 * Who may change an account and how. The role rule applies to both the account as it is and as
 * it would become, so an ADMIN can neither edit an admin nor promote a user to admin. Nobody
 * deactivates themselves or changes their own role: the last SUPER_ADMIN could lock everyone out.
 */
export function checkUpdateUser(actor: Actor, target: Target, change: { role?: Role; isActive?: boolean }): RuleRefusal {
  if (actor.id === target.id) {
    if (change.isActive === false) return { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotChangeSelf };
    if (change.role !== undefined && change.role !== target.role) return { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotChangeSelf };
  }
  if (!canManageRole(actor.role, target.role)) return { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotManageRole };
  if (change.role !== undefined && !canManageRole(actor.role, change.role)) {
    return { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotManageRole };
  }
  return null;
}

export function checkDeleteUser(actor: Actor, target: Target): RuleRefusal {
  if (actor.id === target.id) return { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotChangeSelf };
  if (!canManageRole(actor.role, target.role)) return { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotManageRole };
  return null;
}
