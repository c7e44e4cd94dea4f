import { createHash } from 'node:crypto';
import {
  canOwnerTransition,
  canTransition,
  isAdminRole,
  isEditableStatus,
  MAX_IMAGES_PER_PCN,
  type PcnFields,
  type PcnStatus,
  type Role,
} from '@parkpatrol/shared';

/**
 * Who may do what with a PCN (docs/product.md, Who may see what). Pure, so the table is tested on its own and
 * route handlers only act on the answer.
 *
 * - `allowed`: go ahead.
 * - `hidden`: answer 404, exactly as for a PCN that does not exist, so another USER learns
 *   nothing about someone else's notice.
 * - `locked`: the caller may see it but its status no longer allows this (409).
 * - `forbidden`: the caller may see it but their role never allows this (403).
 */
export type PcnDecision = 'allowed' | 'hidden' | 'locked' | 'forbidden';

export type PcnActor = { id: string; role: Role };
export type PcnSubject = { createdBy: string | null; status: PcnStatus };

function isOwner(actor: PcnActor, pcn: PcnSubject): boolean {
  return pcn.createdBy !== null && pcn.createdBy === actor.id;
}

export function canViewPcn(actor: PcnActor, pcn: PcnSubject): boolean {
  return isAdminRole(actor.role) || isOwner(actor, pcn);
}

/** Owner while SUBMITTED, or ADMIN+ at any status. Also used for delete. */
export function decidePcnChange(actor: PcnActor, pcn: PcnSubject): PcnDecision {
  if (isAdminRole(actor.role)) return 'allowed';
  if (!isOwner(actor, pcn)) return 'hidden';
  return isEditableStatus(pcn.status) ? 'allowed' : 'locked';
}

/** Submit is an idempotent confirmation: fine while SUBMITTED, a conflict once it has moved on. */
export function decidePcnSubmit(actor: PcnActor, pcn: PcnSubject): PcnDecision {
  if (!canViewPcn(actor, pcn)) return 'hidden';
  return pcn.status === 'SUBMITTED' ? 'allowed' : 'locked';
}

/**
 * Admins move a PCN along PCN_STATUS_TRANSITIONS; the owner may only cancel their own
 * SUBMITTED notice. Any other change by the owner is a role problem (403), while a change the
 * table does not allow is a state conflict (409).
 */
export function decideStatusChange(actor: PcnActor, pcn: PcnSubject, to: PcnStatus): PcnDecision {
  if (!canViewPcn(actor, pcn)) return 'hidden';
  if (isAdminRole(actor.role)) return canTransition(pcn.status, to) ? 'allowed' : 'locked';
  if (to !== 'CANCELLED') return 'forbidden';
  return canOwnerTransition(pcn.status, to) ? 'allowed' : 'locked';
}

/** The image cap applies to what the PCN holds after an edit, not to one request. */
export function fitsImageLimit(currentCount: number, removedCount: number, addedCount: number): boolean {
  return currentCount - removedCount + addedCount <= MAX_IMAGES_PER_PCN;
}

/**
 * The fingerprint of a create request, stored beside its idempotency key. A replay with the
 * same key must carry the same notice; same key with other fields or photos is a client bug
 * (or a reused draft id) and is refused rather than silently answered with another PCN.
 */
export function hashPcnRequest(
  // Service is optional here as it was before it was recorded: old requests keep their hash.
  fields: Omit<PcnFields, 'noticeServedBy'> & Partial<Pick<PcnFields, 'noticeServedBy'>>,
  images: ReadonlyArray<{ sha256: string; takenAt: string | null } & Partial<RequestImageFacts>>,
): string {
  const parts: unknown[] = [
    fields.vehicleRegistration,
    fields.carParkId,
    fields.offenceType,
    fields.description,
    fields.location,
    fields.observedAt ?? null,
    images.map((image) => [image.sha256, image.takenAt]),
  ];
  // The evidence inputs join the fingerprint only when sent, so a request from before them (a
  // notice still in a phone's outbox, replayed after an upgrade) keeps the hash it was stored
  // with instead of turning into a 422. X-Device-Time is left out: it changes on every retry.
  const extras = {
    issuedAt: fields.issuedAt ?? null,
    stayApplies: fields.stayApplies ?? null,
    duplicateReason: fields.duplicateReason || null,
    noticeServedBy: fields.noticeServedBy ?? null,
    noticeServedAt: fields.noticeServedAt ?? null,
    images: images.map((image) => [
      image.takenAtSource ?? null,
      image.latitude ?? null,
      image.longitude ?? null,
      image.accuracyM ?? null,
      image.shots?.length ? image.shots : null,
    ]),
  };
  const hasExtras =
    extras.issuedAt !== null ||
    extras.stayApplies !== null ||
    extras.duplicateReason !== null ||
    extras.noticeServedBy !== null ||
    extras.images.some((facts) => facts.some((value) => value !== null));
  if (hasExtras) parts.push(extras);
  // Joined only when given, so every notice sent before permits keeps its fingerprint.
  if (fields.permitOverrideReason) parts.push({ permitOverrideReason: fields.permitOverrideReason });
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

type RequestImageFacts = {
  takenAtSource: string | null;
  latitude: number | null;
  longitude: number | null;
  accuracyM: number | null;
  shots: readonly string[];
};

/** Search ignores case and spaces; a leading "PCN-" as shown on screen still finds the number. */
export function normalisePcnSearch(search: string): { registration: string; number: string } | null {
  const registration = search.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (!registration) return null;
  const number = registration.replace(/^PCN/, '');
  return { registration, number: number || registration };
}
