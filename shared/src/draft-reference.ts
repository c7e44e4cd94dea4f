import { UUID_PATTERN } from './limits.ts';

/**
 * The reference a notice to driver prints before the notice is sent (decision 0018): `D-` and the
 * first eight characters of the draft's id. The draft id is the notice's Idempotency-Key, so the
 * server works out the same reference from the key it keeps, and the motorist can look the
 * charge up by what the ticket says.
 */
export function draftReference(draftId: string): string {
  return `D-${draftId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

/** The draft reference of a notice filed under this Idempotency-Key, or null when the key is no draft id (not a UUID). */
export function draftReferenceOfKey(idempotencyKey: string | null): string | null {
  return idempotencyKey !== null && UUID_PATTERN.test(idempotencyKey) ? draftReference(idempotencyKey) : null;
}

/**
 * A draft reference as a motorist types it: 'd-1a2b3c4d', 'D 1A2B 3C4D', 'D1A2B3C4D' ->
 * 'D-1A2B3C4D'. Spaces and hyphens are ignored and case does not matter; null when it cannot be one.
 */
export function normaliseDraftReference(reference: string): string | null {
  const hex = /^D([0-9A-F]{8})$/i.exec(reference.replace(/[\s-]+/g, ''))?.[1];
  return hex ? `D-${hex.toUpperCase()}` : null;
}
