/**
 * The registered keeper of a notice's vehicle: who a notice to keeper is addressed to. It comes
 * from an admin's entry or from a keeper reply (the DVLA's answer to a request for keeper
 * details), with the vehicle the DVLA holds, which the admin checks against the photos before
 * any letter goes. Personal data: admins only, and removed under the retention policy.
 */
export const KEEPER_SOURCES = ['MANUAL', 'KEEPER_REPLY'] as const;
export type KeeperSource = (typeof KEEPER_SOURCES)[number];

/**
 * Who the keeper is: the registered keeper, or a vehicle-hire firm (a hire or lease company) that
 * had hired the vehicle out. A hire firm answers the notice to keeper with the hirer's details and
 * documents (Schedule 4, paragraph 13), and the creditor then turns to the hirer (paragraph 14).
 */
export const KEEPER_TYPES = ['REGISTERED_KEEPER', 'HIRE_COMPANY'] as const;
export type KeeperType = (typeof KEEPER_TYPES)[number];

export const KEEPER_TYPE_LABELS: Record<KeeperType, string> = {
  REGISTERED_KEEPER: 'Registered keeper',
  HIRE_COMPANY: 'Hire or lease company',
};

export function isKeeperType(value: string): value is KeeperType {
  return (KEEPER_TYPES as readonly string[]).includes(value);
}

export type KeeperDetails = {
  keeperType: KeeperType;
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
  /** When an admin answered that the DVLA's vehicle does not match the photos; no letter goes while it stands. */
  vehicleMismatchAt: string | null;
  vehicleMismatchBy: string | null;
  updatedAt: string;
};

/**
 * Where a notice stands on its keeper: none yet, recorded but the vehicle not checked, the vehicle
 * refused (it does not match the photos), or ready for a letter.
 */
export type KeeperState = 'NONE' | 'UNCONFIRMED' | 'MISMATCH' | 'CONFIRMED';

export function keeperStateOf(keeper: Pick<Keeper, 'vehicleConfirmedAt' | 'vehicleMismatchAt'> | null): KeeperState {
  if (!keeper) return 'NONE';
  if (keeper.vehicleConfirmedAt) return 'CONFIRMED';
  return keeper.vehicleMismatchAt ? 'MISMATCH' : 'UNCONFIRMED';
}

export const KEEPER_STATE_LABELS: Record<KeeperState, string> = {
  NONE: 'No keeper yet',
  UNCONFIRMED: 'Vehicle to confirm',
  MISMATCH: 'Vehicle does not match',
  CONFIRMED: 'Keeper ready',
};

/** Why no notice to keeper goes for a keeper whose vehicle was refused: on the refusal and in the review. */
export const VEHICLE_MISMATCH_REASON = "The DVLA's vehicle does not match the photos: correct the registration or the keeper";

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
  /** Optional: HIRE_COMPANY when the keeper is a hire or lease firm; blank for the registered keeper. */
  'keeper_type',
] as const;

export type KeeperReplyColumn = (typeof KEEPER_REPLY_COLUMNS)[number];

/** What the import reads in event_date, as the import screen says it. */
export const KEEPER_REPLY_DATE_FORMAT =
  'Dates (event_date) are read as DD/MM/YYYY, the DVLA’s order (27/11/2026), or as YYYY-MM-DD (2026-11-27). Leave event_date blank to match on the reference and registration only.';

/** A reply's event_date as a calendar day: '27/11/2026' (the DVLA's order) or '2026-11-27' to '2026-11-27'; anything else as written, to be named as not the notice's day. */
export function keeperReplyEventDay(text: string): string {
  const uk = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (uk) return `${uk[3]}-${uk[2]!.padStart(2, '0')}-${uk[1]!.padStart(2, '0')}`;
  return text;
}

/** One made-up reply, a value for every column: the template's second line and the screen's example. */
const KEEPER_REPLY_EXAMPLE: Record<KeeperReplyColumn, string> = {
  reference: 'PCN-10000001',
  registration: 'AB12CDE',
  event_date: '27/11/2026',
  title: 'Ms',
  first_names: 'Kira',
  last_name: 'Keeper',
  company_name: '',
  address_line_1: '12 Acacia Avenue',
  address_line_2: 'Headingley',
  address_line_3: 'Leeds',
  address_line_4: '',
  postcode: 'LS6 3AA',
  make: 'Ford',
  model: 'Focus',
  colour: 'Blue',
  no_keeper_reason: '',
  keeper_type: '',
};

export const KEEPER_REPLY_TEMPLATE_FILE_NAME = 'keeper-replies-template.csv';

/** A CSV cell: quoted, with its quotes doubled, where a comma, quote or line break would split it. */
function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The template's two lines: the header (KEEPER_REPLY_COLUMNS in order, as the import reads them) and the example row. */
export function keeperReplyTemplateLines(): [header: string, example: string] {
  return [KEEPER_REPLY_COLUMNS.join(','), KEEPER_REPLY_COLUMNS.map((column) => csvCell(KEEPER_REPLY_EXAMPLE[column])).join(',')];
}

/** The template an admin downloads: the header line and one example row, each ended by CRLF (RFC 4180). */
export function keeperReplyTemplateCsv(): string {
  return keeperReplyTemplateLines()
    .map((line) => `${line}\r\n`)
    .join('');
}

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

/** A person or company with an address that documents can be given at. */
export type PostalParty = {
  title: string;
  firstNames: string;
  lastName: string;
  companyName: string;
  addressLines: string[];
  postcode: string;
};

/** A letter's posting as it stands: posted on, presumed given on, and the proof-of-posting reference. */
export type LetterPosting = { postedOn: string | null; givenOn: string | null; proofReference: string | null };

/**
 * The hirer a hire firm named (Schedule 4, paragraph 13(2)): with the day the creditor was given
 * the three documents, which starts the notice to hirer's 21 days (paragraph 14). Admins only.
 */
export type Hirer = PostalParty & {
  /** The day the creditor was given the firm's statement, the hire agreement and the hirer's statement of liability. */
  documentsGivenOn: string;
  hireAgreementReference: string;
  /** The notice to hirer's posting window (paragraph 14), from documentsGivenOn. */
  window: { firstPostingDate: string; lastPostingDate: string };
  notice: LetterPosting;
  recordedBy: string;
  recordedAt: string;
};

/** Where the driver's name and address came from. */
export const NAMED_DRIVER_SOURCES = ['KEEPER_REPLY', 'APPEAL'] as const;
export type NamedDriverSource = (typeof NAMED_DRIVER_SOURCES)[number];
export const NAMED_DRIVER_SOURCE_LABELS: Record<NamedDriverSource, string> = {
  KEEPER_REPLY: 'The keeper’s reply',
  APPEAL: 'An appeal',
};

/**
 * The driver, named with a current address for service (Schedule 4, paragraph 2: where they live
 * or can conveniently be contacted). Once the creditor knows both, the keeper is not pursued:
 * the warning of keeper liability (paragraphs 8(2)(f), 9(2)(f)) holds only while it does not.
 */
export type NamedDriver = PostalParty & {
  source: NamedDriverSource;
  notice: LetterPosting;
  recordedBy: string;
  recordedAt: string;
};

/**
 * The letters one notice gets besides the notice to keeper, each its own template: to the hirer
 * (paragraph 14), to the named driver, and to the keeper where Schedule 4 does not reach the land.
 */
export const PCN_LETTER_KINDS = ['NOTICE_TO_HIRER', 'NOTICE_TO_NAMED_DRIVER', 'REQUEST_TO_NAME_DRIVER'] as const;
export type PcnLetterKind = (typeof PCN_LETTER_KINDS)[number];

/** POST /pcns/{id}/letters/posted: POSTED now, or ALREADY_POSTED by an earlier request (nothing changed). */
export type PcnLetterPosting = {
  pcnId: string;
  kind: PcnLetterKind;
  outcome: 'POSTED' | 'ALREADY_POSTED';
  postedOn: string;
  deemedGivenOn: string;
};

/** Where a batch of letters stands: waiting for a worker, being made (`made` of `total`), ready to download, or failed with why. */
export const LETTER_BATCH_STATES = ['WAITING', 'MAKING', 'READY', 'FAILED'] as const;
export type LetterBatchState = (typeof LETTER_BATCH_STATES)[number];

/**
 * A batch of notices to keeper made off the request path (POST /keeper-notices/batches): each
 * letter is kept with its notice as it is made, and the batch's one PDF of them all downloads
 * once READY.
 */
export type LetterBatch = {
  id: string;
  postOn: string;
  state: LetterBatchState;
  total: number;
  made: number;
  /** Why it failed, when FAILED: said to the admin as it stands. */
  error: string | null;
  createdByName: string;
  createdAt: string;
  finishedAt: string | null;
};
export type LetterBatchListResponse = { items: LetterBatch[] };

/** The name a download of notices to keeper dated `postOn` is saved as, a few letters or a batch alike. */
export function keeperLettersFileName(postOn: string): string {
  return `notices-to-keeper-${postOn}.pdf`;
}
