import { ADMIN_TEXTS, ROLE_LABELS, type Role } from '@parkpatrol/shared';
import { CircleCheck, CircleSlash, ShieldCheck, UserRound } from 'lucide-react';

/** Spec: role chip with ADMIN highlighted (both admin roles stand out from officers). */
export function RoleChip({ role }: { role: Role }) {
  const isAdmin = role === 'ADMIN' || role === 'SUPER_ADMIN';
  const Icon = isAdmin ? ShieldCheck : UserRound;
  return (
    <span className={`chip ${isAdmin ? 'chip--highlight' : 'chip--neutral'}`}>
      <Icon aria-hidden="true" size={14} />
      {ROLE_LABELS[role] ?? role}
    </span>
  );
}

/** Active or Inactive, by text and icon as well as colour. */
export function ActiveChip({ isActive }: { isActive: boolean }) {
  const Icon = isActive ? CircleCheck : CircleSlash;
  return (
    <span className={`chip ${isActive ? 'chip--success' : 'chip--neutral'}`}>
      <Icon aria-hidden="true" size={14} />
      {isActive ? ADMIN_TEXTS.active : ADMIN_TEXTS.inactive}
    </span>
  );
}
