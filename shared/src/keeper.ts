/**
 * The registered keeper of a notice's vehicle: who a notice to keeper is addressed to. It comes
 * from an admin's entry or from a keeper reply (the DVLA's answer to a request for keeper
 * details), with the vehicle the DVLA holds, which the admin checks against the photos before
 * any letter goes. Personal data: admins only, and removed under the retention policy.
 */
export const KEEPER_SOURCES = ['MANUAL', 'KEEPER_REPLY'] as const;
export type KeeperSource = (typeof KEEPER_SOURCES)[number];

export type KeeperDetails = {
  title: string;
  firstNames: string;
  lastName: string;
  /** A company keeper (a lease or hire firm); empty for a person. */
  companyName: string;
  /** One to four lines, without the postcode. */
  addressLines: string[];
  postcode: string;
  /** The vehicle as the DVLA holds it: shown beside the photos. */
  make: string;
  model: string;
  colour: string;
};

export type Keeper = KeeperDetails & {
  source: KeeperSource;
  /** When an admin confirmed the DVLA's vehicle matches the photos; no letter goes before. */
  vehicleConfirmedAt: string | null;
  vehicleConfirmedBy: string | null;
  updatedAt: string;
};

/** Where a notice stands on its keeper: none yet, recorded but the vehicle not checked, or ready for a letter. */
export type KeeperState = 'NONE' | 'UNCONFIRMED' | 'CONFIRMED';

export function keeperStateOf(keeper: Pick<Keeper, 'vehicleConfirmedAt'> | null): KeeperState {
  if (!keeper) return 'NONE';
  return keeper.vehicleConfirmedAt ? 'CONFIRMED' : 'UNCONFIRMED';
}

export const KEEPER_STATE_LABELS: Record<KeeperState, string> = {
  NONE: 'No keeper yet',
  UNCONFIRMED: 'Vehicle to confirm',
  CONFIRMED: 'Keeper ready',
};

/** The keeper as an envelope's window shows them: name (or company), address lines, postcode. */
export function keeperAddressBlock(
  keeper: Pick<KeeperDetails, 'title' | 'firstNames' | 'lastName' | 'companyName' | 'addressLines' | 'postcode'>,
): string[] {
  const person = [keeper.title, keeper.firstNames, keeper.lastName]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
  const lines = [person, keeper.companyName.trim(), ...keeper.addressLines.map((line) => line.trim()), keeper.postcode.trim()];
  return lines.filter(Boolean);
}

/** The reply CSV's columns, in order: the file an admin exports from their keeper enquiries. */
export const KEEPER_REPLY_COLUMNS = [
  'reference',
  'registration',
  'event_date',
  'title',
  'first_names',
  'last_name',
  'company_name',
  'address_line_1',
  'address_line_2',
  'address_line_3',
  'address_line_4',
  'postcode',
  'make',
  'model',
  'colour',
  'no_keeper_reason',
] as const;

export const KEEPER_REPLY_OUTCOMES = ['APPLIED', 'UNCHANGED', 'NO_KEEPER', 'MISMATCH', 'NOT_FOUND', 'INVALID'] as const;
export type KeeperReplyOutcome = (typeof KEEPER_REPLY_OUTCOMES)[number];

export const KEEPER_REPLY_OUTCOME_LABELS: Record<KeeperReplyOutcome, string> = {
  APPLIED: 'Keeper recorded',
  UNCHANGED: 'Already recorded',
  NO_KEEPER: 'No keeper given',
  MISMATCH: 'Does not match the notice',
  NOT_FOUND: 'No such notice',
  INVALID: 'Cannot be read',
};

/** One CSV row's result: row 1 is the first after the header. */
export type KeeperReplyResult = {
  row: number;
  reference: string;
  registration: string;
  outcome: KeeperReplyOutcome;
  message: string;
  pcnId: string | null;
};

export type KeeperReplyImport = {
  results: KeeperReplyResult[];
  counts: Record<KeeperReplyOutcome, number>;
};

/** Why a notice cannot have a letter (POST /keeper-notices/letters answers 422 with one per notice). */
export type KeeperLetterRefusal = { pcnId: string; pcnNumber: string | null; reason: string };

export type KeeperNoticePosting = {
  pcnId: string;
  pcnNumber: string;
  /** POSTED now, or ALREADY_POSTED by an earlier request (nothing changed). */
  outcome: 'POSTED' | 'ALREADY_POSTED';
  postedOn: string;
  deemedGivenOn: string;
};
export type KeeperNoticesPostedResponse = { results: KeeperNoticePosting[] };
