import type { PublicAppeal } from './appeals.ts';
import type { AppealsService } from './operator-terms.ts';
import type { CollectionStage } from './collection.ts';
import type { PublicCardPayment } from './card-payments.ts';

/**
 * The charge as the motorist sees it (GET /public/charges/current): what the notices said, the
 * photos, what is due and until when, how to pay and how to appeal. Never the officer's name,
 * the admins' notes or the keeper's details.
 */
export const CHARGE_STATES = ['OUTSTANDING', 'PAID', 'CANCELLED'] as const;
export type ChargeState = (typeof CHARGE_STATES)[number];

export type PublicCharge = {
  reference: string;
  /** The reference a ticket printed before its notice was sent ('D-1A2B3C4D'), when the notice to driver had one; it finds the charge too. */
  draftReference: string | null;
  vehicleRegistration: string;
  carPark: { name: string; address: string; postcode: string };
  /** The period of parking: first seen to when the notice was given. */
  parkedFrom: string;
  parkedUntil: string;
  contravention: string;
  /** The photos, as short-lived URLs good for this charge only. */
  photos: Array<{ url: string; thumbnailUrl: string; takenAt: string | null }>;
  state: ChargeState;
  chargePence: number | null;
  /** What is due today, less what has been paid (0 once paid or cancelled). */
  amountDuePence: number;
  /** Payments recorded so far. */
  paidPence: number;
  /** The reduced amount and the last day it applies, while it does. */
  reduced: { amountPence: number; until: string | null } | null;
  /** The last day to appeal in time (appealPeriodEnd); null before any notice was given. */
  appealUntil: string | null;
  signageTerms: string;
  creditor: { name: string; address: string; phone: string; email: string; website: string; howToPay: string } | null;
  appealsService: { service: AppealsService; name: string; contact: string } | null;
  /** The motorist's appeal, or null; while it is open the charge is on hold, its amounts as on the day it came. */
  appeal: PublicAppeal | null;
  onHold: boolean;
  /**
   * While the appeal is open (it may be withdrawn): what would be due from today were it withdrawn
   * now, by the same rules (decision 0044). Null otherwise.
   */
  ifAppealWithdrawn: { amountDuePence: number; reduced: { amountPence: number; until: string | null } | null } | null;
  /**
   * The driver was named to the operator (by the keeper or in an appeal), so the keeper is no
   * longer asked to pay: the notice to the named driver, once posted. Never the driver's name.
   */
  namedDriverNotice: NamedDriverNotice | null;
  /** Where the chase after the notice to keeper stands (decision 0039); null before a notice to keeper was posted. */
  collectionStage: CollectionStage | null;
  /** Paying by card here (card-payments.ts); null when the operator takes no card payments online. */
  card: PublicCardPayment | null;
};

export type ChargeLookupResponse = { charge: PublicCharge; accessToken: string };

/**
 * GET /public/charges/operator: whose charges /charge looks up, named at the top of the lookup
 * before any charge is found; null before Operator Settings are saved. logoUrl: the operator's
 * logo (its address changes with its bytes), null when none is set.
 */
export type PublicOperator = { name: string | null; logoUrl: string | null };

/** The one answer to a wrong pair, whichever half is wrong: nothing says which. */
export const CHARGE_NOT_FOUND = 'No charge matches that reference and registration. Check both against your notice.';
export const CHARGE_LOOKUP_LIMITED = 'Too many attempts. Try again later.';

/**
 * A lookup is never refused to the right pair because of someone else's wrong guesses: once a
 * reference, a registration or an address has had too many wrong ones, each further lookup touching
 * it must first show a little work (about a second of a phone's time, more as the guessing goes
 * on), which the page does by itself. The 429 names the challenge in this header; the lookup is
 * sent again with `proof`, the challenge and a number whose SHA-256 starts with that many zero bits.
 */
export const LOOKUP_CHALLENGE_HEADER = 'Lookup-Challenge';

/** The zero bits a challenge demands (its first field), or null when it is not one of ours. */
export function lookupChallengeBits(challenge: string): number | null {
  const bits = /^(\d{1,2})\.[\w.-]{1,150}$/.exec(challenge)?.[1];
  return bits === undefined ? null : Number(bits);
}

/** What is hashed, and sent back as `proof`: the challenge and the number found. */
export function lookupProofOf(challenge: string, nonce: number): string {
  return `${challenge}:${nonce}`;
}

/** Whether a digest starts with at least `bits` zero bits. */
export function hasLeadingZeroBits(digest: Uint8Array, bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    if ((digest[i >> 3]! >> (7 - (i & 7))) & 1) return false;
  }
  return true;
}

/** 'PCN-00000123', 'pcn 123', '00000123' -> '00000123'; null when it cannot be one of ours. */
export function normaliseChargeReference(reference: string): string | null {
  const digits = /^(?:PCN-?)?(\d{1,8})$/i.exec(reference.replace(/\s+/g, ''))?.[1];
  return digits ? digits.padStart(8, '0') : null;
}

export type NamedDriverNotice = { postedOn: string | null; givenOn: string | null };

/** What the motorist's page says of a named driver: the notice to them, posted or still to go. */
export function describeNamedDriverNotice(notice: NamedDriverNotice, formatDate: (date: string) => string): string {
  const start = 'The driver was named to us, so we no longer ask the registered keeper to pay.';
  if (!notice.postedOn) return `${start} A notice to the named driver is being prepared.`;
  const given = notice.givenOn ? `, presumed given on ${formatDate(notice.givenOn)}` : '';
  return `${start} A notice to the named driver was posted on ${formatDate(notice.postedOn)}${given}.`;
}
