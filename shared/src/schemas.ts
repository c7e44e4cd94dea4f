import { z } from 'zod';
import { MAX_BULK_ITEMS, MAX_LETTER_BATCH, MAX_LIMIT, DEFAULT_LIMIT, DEFAULT_PAGE } from './limits.ts';
import { VALIDATION_MESSAGES as V } from './messages.ts';
import { emailSchema, multiLineCheck, passwordSchema, pcnFieldsObject, registrationSchema, singleLineCheck } from './patrol-schemas.ts';
import { PCN_STATUSES } from './pcn-status.ts';
import { ROLES } from './roles.ts';
import { JURISDICTIONS } from './keeper-liability.ts';
import { KEEPER_TYPES, NAMED_DRIVER_SOURCES, PCN_LETTER_KINDS } from './keeper.ts';
import { APPEALS_SERVICES, COLLECTION_DAY_BOUNDS } from './operator-terms.ts';
import { COLLECTION_LETTER_KINDS, COLLECTION_STAGES } from './collection.ts';
import { PAYMENT_METHODS } from './payments.ts';
import { CANCELLATION_REASONS } from './permits.ts';
import { CANCELLATION_MESSAGES, CANCELLATION_NOTE_MAX } from './landowners.ts';
import { REFUND_MESSAGES, REFUND_REASON_MAX_LENGTH } from './refunds.ts';
import { MONEY_WEEKS } from './money.ts';
import { PERMIT_KINDS } from './permits.ts';
import { PERMIT_IMPORT_MAX_ROWS, PERMIT_NOTE_MAX_LENGTH, permitEndOfDay, permitStartOfDay } from './permit-check.ts';
import { VISITOR_PAGE_LIMITS, VISITOR_SITE_CODE_PATTERN, VISITOR_TEXTS } from './visitor-page.ts';
import { SECTOR_LIMITS, SECTOR_LIMIT_MESSAGES, sectorLimitProblems, type SectorLimitedCarPark } from './sector-limits.ts';
import {
  APPEAL_MESSAGES,
  APPEAL_OUTCOMES,
  APPEAL_REASONS,
  APPEAL_SORT_KEYS,
  APPEAL_STATUSES,
  APPEAL_TEXT_MAX,
  APPEALS_CHARTER,
  CHARTER_CASES,
  CHARTER_REDUCED_PENCE,
  ENTERED_APPEAL_CHANNELS,
} from './appeals.ts';
import { CAR_PARK_SORT_KEYS, ONBOARDING_SORT_KEYS, PCN_SORT_KEYS, SORT_ORDERS, USER_SORT_KEYS } from './list-sorting.ts';

const singleLine = <S extends z.ZodType<string>>(schema: S) => schema.check(singleLineCheck);
const multiLine = <S extends z.ZodType<string>>(schema: S) => schema.check(multiLineCheck);

const nameSchema = (requiredMessage: string) =>
  singleLine(z.string({ error: requiredMessage }).trim().min(1, requiredMessage).max(100, 'At most 100 characters'));

const idSchema = singleLine(z.string().trim().min(1).max(64));

// ---- auth ----
export const loginInputSchema = z.object({
  email: emailSchema,
  password: z.string({ error: V.passwordRequired }).min(1, V.passwordRequired).max(200),
  /** The token this device was given at an earlier sign-in to this account, if any. */
  deviceToken: z.string().min(1).max(200).optional(),
  /** An emailed sign-in link for this device: its guess is heard even when the account wants a known device. */
  deviceLink: z.string().min(1).max(200).optional(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/** The device token goes along: a rotated token is answered again only on the device that rotated it. */
export const refreshInputSchema = z.object({
  refreshToken: z.string().min(1).max(200),
  deviceToken: z.string().min(1).max(200).optional(),
});
export const logoutInputSchema = z.object({ refreshToken: z.string().max(200).optional() });
export const resetPasswordInputSchema = z.object({
  token: z.string().min(1).max(200),
  password: passwordSchema,
});
export const resetTokenCheckInputSchema = z.object({ token: z.string().min(1).max(200) });
export const accessLinkInputSchema = z.object({ token: z.string().min(1).max(200) });
export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;

// ---- users ----
/**
 * currentPassword is required with newPassword only when the user already has a password; a
 * user who came in through an access link sets their first one without it. Only the server
 * knows which, so the API enforces that rule (the web form can add it when hasPassword is true).
 */
export const updateProfileInputSchema = z.object({
  firstName: nameSchema(V.firstNameRequired).optional(),
  lastName: nameSchema(V.lastNameRequired).optional(),
  currentPassword: z.string().max(200).optional(),
  newPassword: z.optional(passwordSchema),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInputSchema>;

/** A user created without a password sets one through the onboarding link. */
export const createUserInputSchema = z.object({
  firstName: nameSchema(V.firstNameRequired),
  lastName: nameSchema(V.lastNameRequired),
  email: emailSchema,
  role: z.enum(ROLES).default('USER'),
  password: z.optional(passwordSchema),
  isActive: z.boolean().default(true),
  carParkIds: z.array(idSchema).max(500).optional(),
});
export type CreateUserInput = z.infer<typeof createUserInputSchema>;

export const updateUserInputSchema = z.object({
  firstName: nameSchema(V.firstNameRequired).optional(),
  lastName: nameSchema(V.lastNameRequired).optional(),
  email: z.optional(emailSchema),
  role: z.enum(ROLES).optional(),
  isActive: z.boolean().optional(),
  password: z.optional(passwordSchema),
  /** Needed when the admin changes their own password or email (the account's owner proves it). */
  currentPassword: z.string().max(200).optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserInputSchema>;

// ---- pagination and lists ----
const pageSchema = z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_PAGE);
const limitSchema = z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT);
const optionalBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

export const paginationQuerySchema = z.object({ page: pageSchema, limit: limitSchema });

/** `sort=<key>&order=asc|desc`: absent, each list's DEFAULT_SORTS; a key without an order takes firstOrder. */
function sortSchema<K extends readonly [string, ...string[]]>(keys: K) {
  return {
    sort: z.enum(keys, { error: `Sort by one of: ${keys.join(', ')}` }).optional(),
    order: z.enum(SORT_ORDERS, { error: "Order is 'asc' or 'desc'" }).optional(),
  };
}

export const userListQuerySchema = paginationQuerySchema.extend({
  search: singleLine(z.string().trim().max(100)).optional(),
  role: z.enum(ROLES).optional(),
  isActive: optionalBoolean,
  ...sortSchema(USER_SORT_KEYS),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export const carParkListQuerySchema = paginationQuerySchema.extend({
  search: singleLine(z.string().trim().max(100)).optional(),
  isActive: optionalBoolean,
  ...sortSchema(CAR_PARK_SORT_KEYS),
});
export type CarParkListQuery = z.infer<typeof carParkListQuerySchema>;

/** GET /onboarding/users: every user but the caller, sorted; 'neverSignedIn=true' keeps those who never signed in. */
export const onboardingListQuerySchema = z.object({
  neverSignedIn: optionalBoolean,
  ...sortSchema(ONBOARDING_SORT_KEYS),
});
export type OnboardingListQuery = z.infer<typeof onboardingListQuerySchema>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-01-31');

/** A real calendar date (2026-02-31 is refused, not rolled over). */
const calendarDate = isoDate.refine((value) => {
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}, 'Use a real date like 2026-01-31');

/**
 * Whose notices a list or count covers: the caller's own by default, for every role (My PCNs
 * is mine for an admin too); 'all' is the Administration area's, for admins only.
 */
const pcnScope = z.enum(['mine', 'all'], { error: "Scope is 'mine' or 'all'" }).optional();

export const pcnListQuerySchema = paginationQuerySchema.extend({
  status: z.enum(PCN_STATUSES).optional(),
  search: singleLine(z.string().trim().max(100)).optional(),
  carParkId: idSchema.optional(),
  // Real dates only: 2026-13-45 has the right shape but no day, and the query would throw on it.
  from: calendarDate.optional(),
  to: calendarDate.optional(),
  /** Admins sort by any column; 'deadline' also lists only PCNs whose keeper notice can still go out. */
  ...sortSchema(PCN_SORT_KEYS),
  /** Admins: 'duplicates' lists only PCNs flagged as a possible second charge for one parking event. */
  flagged: z.enum(['duplicates'], { error: "The only flag is 'duplicates'" }).optional(),
  /** Admins: where the chase after the notice to keeper stands. */
  collectionStage: z.enum(COLLECTION_STAGES, { error: 'Choose a collection stage' }).optional(),
  /** Admins: only charges cancelled for this reason. */
  cancellationReason: z.enum(CANCELLATION_REASONS, { error: 'Choose a cancellation reason' }).optional(),
  /** Admins: only charges a landowner's cancellation request waits on. */
  cancellationRequest: z.enum(['PENDING'], { error: "The only request filter is 'PENDING'" }).optional(),
  scope: pcnScope,
});
export type PcnListQuery = z.infer<typeof pcnListQuerySchema>;

/** GET /pcns/stats: the caller's own notices, or (admins, scope=all) everyone's. */
export const pcnStatsQuerySchema = z.object({ scope: pcnScope });

// ---- car parks ----
const carParkFields = {
  name: nameSchema(V.nameRequired),
  siteCode: singleLine(z.string().trim().min(1, 'Site code is required').max(20, 'At most 20 characters')).transform((v) =>
    v.toUpperCase(),
  ),
  address: singleLine(z.string().trim().max(200, 'At most 200 characters')),
  postcode: singleLine(z.string().trim().max(10, 'At most 10 characters')).transform((v) => v.toUpperCase()),
  isActive: z.boolean(),
  considerationMinutes: z.number().int().min(0).max(240),
  graceMinutes: z.number().int().min(0).max(240),
  stayAppliesByDefault: z.boolean(),
  chargePence: z.number().int().min(100, 'At least £1').max(SECTOR_LIMITS.maxChargePence, SECTOR_LIMIT_MESSAGES.chargePence).nullable(),
  reducedChargePence: z
    .number()
    .int()
    .min(1, 'At least 1p')
    .max(SECTOR_LIMITS.maxChargePence, SECTOR_LIMIT_MESSAGES.chargePence)
    .nullable(),
  reducedWithinDays: z
    .number()
    .int()
    .min(SECTOR_LIMITS.minReducedWithinDays, SECTOR_LIMIT_MESSAGES.reducedWithinDays)
    .max(28, 'At most 28 days')
    .nullable(),
  signageTerms: multiLine(z.string().trim().max(2000, 'At most 2,000 characters')),
  jurisdiction: z.enum(JURISDICTIONS, { error: 'Choose where the land is' }),
  /** Schedule 4 paragraph 3's "relevant land": false for byelaw land or other statutory control. */
  relevantLand: z.boolean({ error: 'Say whether the land is relevant land' }),
  /** Why a consideration or grace period is shorter than the Single Code's minimum; blank is none. */
  minimumsOverrideReason: multiLine(z.string().trim().max(500, 'At most 500 characters'))
    .nullable()
    .transform((value) => (value === '' ? null : value)),
};

/**
 * A reduced amount comes with its days, and is less than the charge. Checked on what the request
 * would leave stored, so an update that sends one of them is judged with the others.
 */
export function carParkTermsProblems(terms: {
  chargePence: number | null;
  reducedChargePence: number | null;
  reducedWithinDays: number | null;
}): Partial<Record<'chargePence' | 'reducedChargePence' | 'reducedWithinDays', string>> {
  const problems: Partial<Record<'chargePence' | 'reducedChargePence' | 'reducedWithinDays', string>> = {};
  if (terms.reducedChargePence !== null && terms.reducedWithinDays === null) problems.reducedWithinDays = 'Say within how many days';
  if (terms.reducedChargePence === null && terms.reducedWithinDays !== null) problems.reducedChargePence = 'Give the reduced amount';
  if (terms.reducedChargePence !== null && terms.chargePence === null) problems.chargePence = 'Give the charge first';
  if (terms.reducedChargePence !== null && terms.chargePence !== null && terms.reducedChargePence >= terms.chargePence) {
    problems.reducedChargePence = 'Must be less than the charge';
  }
  return problems;
}

/**
 * Everything a car park must be to be saved: its terms hang together and it is within the
 * sector's limits (sector-limits.ts). The plainer problem of a field is the one shown.
 */
export function carParkProblems(carPark: SectorLimitedCarPark): Partial<Record<keyof SectorLimitedCarPark, string>> {
  return { ...sectorLimitProblems(carPark), ...carParkTermsProblems(carPark) };
}

export const createCarParkInputSchema = z.object({
  ...carParkFields,
  chargePence: carParkFields.chargePence.default(null),
  reducedChargePence: carParkFields.reducedChargePence.default(null),
  reducedWithinDays: carParkFields.reducedWithinDays.default(null),
  signageTerms: carParkFields.signageTerms.default(''),
  jurisdiction: carParkFields.jurisdiction.default('ENGLAND_AND_WALES'),
  relevantLand: carParkFields.relevantLand.default(true),
  address: carParkFields.address.default(''),
  postcode: carParkFields.postcode.default(''),
  isActive: carParkFields.isActive.default(true),
  considerationMinutes: carParkFields.considerationMinutes.default(5),
  graceMinutes: carParkFields.graceMinutes.default(10),
  stayAppliesByDefault: carParkFields.stayAppliesByDefault.default(false),
  minimumsOverrideReason: carParkFields.minimumsOverrideReason.default(null),
});
export type CreateCarParkInput = z.infer<typeof createCarParkInputSchema>;
// Built without the defaults: zod 4 still applies a default inside .partial(), which would
// silently reset every field a PUT leaves out.
export const updateCarParkInputSchema = z.object(carParkFields).partial();
export type UpdateCarParkInput = z.infer<typeof updateCarParkInputSchema>;
export const assignUserInputSchema = z.object({ userId: idSchema });

// ---- the operator's terms ----
const termsLine = (required: string, max = 200) =>
  singleLine(z.string({ error: required }).trim().min(1, required).max(max, `At most ${max} characters`));
const termsText = (required: string, max: number) =>
  multiLine(
    z
      .string({ error: required })
      .trim()
      .min(1, required)
      .max(max, `At most ${max.toLocaleString('en-GB')} characters`),
  );

/** A whole number of days between the bounds, said beside the field. */
function wholeDays(bounds: { min: number; max: number }) {
  const message = `Between ${bounds.min} and ${bounds.max} days`;
  return z.number({ error: message }).int(message).min(bounds.min, message).max(bounds.max, message);
}

export const operatorTermsInputSchema = z.object({
  creditorName: termsLine('Give the creditor’s name'),
  creditorAddress: termsText('Give the creditor’s postal address', 300),
  creditorPhone: termsLine('Give a phone number', 40),
  creditorEmail: emailSchema,
  creditorWebsite: termsLine('Give a website', 200),
  howToPay: termsText('Say how to pay', 1000),
  appealsService: z.enum(APPEALS_SERVICES, { error: 'Choose the independent appeals service' }),
  appealsServiceContact: termsText('Give the appeals service’s contact details', 500),
  // The chase after the notice to keeper (decision 0039). Optional: a save without them keeps
  // the values in force (a client from before they existed changes nothing it cannot see).
  reminderAfterDays: wholeDays(COLLECTION_DAY_BOUNDS.reminderAfterDays).optional(),
  letterBeforeClaimAfterDays: wholeDays(COLLECTION_DAY_BOUNDS.letterBeforeClaimAfterDays).optional(),
  debtRecoveryFeePence: z
    .number({ error: 'Give the debt recovery charge in pence (0 for none)' })
    .int('Give the debt recovery charge in whole pence')
    .min(0, 'Give the debt recovery charge in pence (0 for none)')
    .max(SECTOR_LIMITS.maxDebtRecoveryFeePence, SECTOR_LIMIT_MESSAGES.debtRecoveryFeePence)
    .optional(),
});
export type OperatorTermsInput = z.infer<typeof operatorTermsInputSchema>;

// ---- the registered keeper ----
const keeperLine = (max: number) => singleLine(z.string().trim().max(max, `At most ${max} characters`));
/** UK postcodes, space optional (SW1A 1AA, M1 1AE, B33 8TH, CR2 6XH, DN55 1PT), stored with the space. */
const UK_POSTCODE = /^([A-Z]{1,2}\d[A-Z\d]?) ?(\d[A-Z]{2})$/;
export const keeperInputSchema = z
  .object({
    title: keeperLine(20).default(''),
    firstNames: keeperLine(100).default(''),
    lastName: keeperLine(100).default(''),
    companyName: keeperLine(150).default(''),
    addressLines: z
      .array(keeperLine(100), { error: 'Give the first line of the address' })
      .max(4, 'At most 4 address lines')
      .transform((lines) => lines.filter((line) => line !== ''))
      .refine((lines) => lines.length > 0, 'Give the first line of the address'),
    postcode: z
      .string({ error: 'Enter a UK postcode' })
      .trim()
      .transform((value) => value.toUpperCase())
      .refine((value) => UK_POSTCODE.test(value), 'Enter a UK postcode')
      .transform((value) => value.replace(UK_POSTCODE, '$1 $2')),
    make: keeperLine(40).default(''),
    model: keeperLine(40).default(''),
    colour: keeperLine(40).default(''),
    /** A hire or lease firm, which will name the hirer (Schedule 4, paragraph 13). */
    keeperType: z.enum(KEEPER_TYPES, { error: 'Choose who the keeper is' }).default('REGISTERED_KEEPER'),
    /** The admin has checked the DVLA's make and colour against the photos. */
    vehicleConfirmed: z.boolean().default(false),
    /**
     * The admin has checked them and they do not match: no letter goes. Left out, a refusal
     * already recorded stands while the DVLA's vehicle is the same; false withdraws it.
     */
    vehicleMismatch: z.boolean().optional(),
  })
  .refine((keeper) => keeper.lastName !== '' || keeper.companyName !== '', {
    message: 'Give the keeper’s last name or a company name',
    path: ['lastName'],
  })
  .refine((keeper) => !(keeper.vehicleConfirmed && keeper.vehicleMismatch), {
    message: 'A vehicle cannot both match and not match the photos',
    path: ['vehicleMismatch'],
  });
export type KeeperInput = z.infer<typeof keeperInputSchema>;

/** Someone a letter is addressed to: a name (or company) and an address with a UK postcode. */
const postalPartyFields = {
  title: keeperLine(20).default(''),
  firstNames: keeperLine(100).default(''),
  lastName: keeperLine(100).default(''),
  companyName: keeperLine(150).default(''),
  addressLines: z
    .array(keeperLine(100), { error: 'Give the first line of the address' })
    .max(4, 'At most 4 address lines')
    .transform((lines) => lines.filter((line) => line !== ''))
    .refine((lines) => lines.length > 0, 'Give the first line of the address'),
  postcode: z
    .string({ error: 'Enter a UK postcode' })
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value) => UK_POSTCODE.test(value), 'Enter a UK postcode')
    .transform((value) => value.replace(UK_POSTCODE, '$1 $2')),
};
const mustBeGiven = (message: string) => z.literal(true, { error: message });

/**
 * PUT /pcns/{id}/hirer: the hirer the hire firm named, and the three documents of Schedule 4
 * paragraph 13(2) it gave, each ticked as received. The address is the one the hirer gave in the
 * statement of liability (paragraph 13(3)(b)).
 */
export const hirerInputSchema = z
  .object({
    ...postalPartyFields,
    hireAgreementReference: keeperLine(60).default(''),
    documentsGivenOn: calendarDay('Give the day the hire firm’s documents were received'),
    hireFirmStatement: mustBeGiven('The hire firm’s signed statement that the vehicle was hired out is needed (paragraph 13(2)(a))'),
    hireAgreementCopy: mustBeGiven('A copy of the hire agreement is needed (paragraph 13(2)(b))'),
    statementOfLiability: mustBeGiven('A copy of the hirer’s signed statement of liability is needed (paragraph 13(2)(c))'),
  })
  .refine((hirer) => hirer.lastName !== '' || hirer.companyName !== '', {
    message: 'Give the hirer’s last name or a company name',
    path: ['lastName'],
  });
export type HirerInput = z.infer<typeof hirerInputSchema>;

/** PUT /pcns/{id}/driver: the driver as the keeper's reply or an appeal named them, with an address for service. */
export const driverInputSchema = z
  .object({
    ...postalPartyFields,
    source: z.enum(NAMED_DRIVER_SOURCES, { error: 'Say where the driver’s name came from' }),
  })
  .refine((driver) => driver.lastName !== '', { message: 'Give the driver’s last name', path: ['lastName'] });
export type DriverInput = z.infer<typeof driverInputSchema>;

/** POST /keeper-replies: the CSV file's text, as read in the browser. */
export const keeperRepliesInputSchema = z.object({
  fileName: singleLine(z.string().trim().max(200)).default(''),
  csv: z
    .string({ error: 'Choose a CSV file of keeper replies' })
    .min(1, 'The file is empty')
    .max(900_000, 'The file is too large: import at most 2,000 rows at a time'),
});

// ---- PCNs ----
export const updatePcnFieldsSchema = z
  .object(pcnFieldsObject.shape)
  .partial()
  .extend({
    /** An admin's correction of how or when the notice to driver was served says why (audited). */
    serviceCorrectionReason: multiLine(z.string().trim().max(500, V.serviceCorrectionReasonTooLong)).optional(),
  });

/** GET /pcns/duplicates: PCNs for the same vehicle at the same car park on the same UTC day. */
export const pcnDuplicatesQuerySchema = z.object({
  vehicleRegistration: registrationSchema,
  carParkId: singleLine(z.string({ error: V.carParkRequired }).trim().min(1, V.carParkRequired).max(64)),
  date: calendarDate,
});
export type PcnDuplicatesQuery = z.infer<typeof pcnDuplicatesQuerySchema>;

/**
 * Every way to CANCELLED says why (decision 0042): the reason is required with that status, and
 * OTHER needs a note that says it. Other statuses take neither.
 */
const cancellationFields = {
  cancellationReason: z.enum(CANCELLATION_REASONS, { error: CANCELLATION_MESSAGES.reasonRequired }).optional(),
  cancellationNote: multiLine(z.string().trim().max(CANCELLATION_NOTE_MAX, `At most ${CANCELLATION_NOTE_MAX} characters`)).optional(),
};
function cancellationSaysWhy(
  value: { status: string; cancellationReason?: string | undefined; cancellationNote?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.status !== 'CANCELLED') return;
  if (!value.cancellationReason)
    ctx.addIssue({ code: 'custom', path: ['cancellationReason'], message: CANCELLATION_MESSAGES.reasonRequired });
  if (value.cancellationReason === 'OTHER' && !value.cancellationNote) {
    ctx.addIssue({ code: 'custom', path: ['cancellationNote'], message: CANCELLATION_MESSAGES.noteRequired });
  }
}
const statusChangeFields = {
  status: z.enum(PCN_STATUSES),
  adminNotes: multiLine(z.string().trim().max(2000)).optional(),
  ...cancellationFields,
};
export const changePcnStatusInputSchema = z.object(statusChangeFields).superRefine(cancellationSaysWhy);
export type ChangePcnStatusInput = z.infer<typeof changePcnStatusInputSchema>;

/** POST /pcns/{id}/cancellation-requests: the landowner's reason. */
export const cancellationRequestInputSchema = z.object({
  reason: multiLine(
    z
      .string({ error: CANCELLATION_MESSAGES.requestReasonRequired })
      .trim()
      .min(1, CANCELLATION_MESSAGES.requestReasonRequired)
      .max(CANCELLATION_NOTE_MAX, `At most ${CANCELLATION_NOTE_MAX} characters`),
  ),
});
export type CancellationRequestInput = z.infer<typeof cancellationRequestInputSchema>;

/** An admin's answer to a landowner's request, from the review: approve or decline, always with a reason. */
export const cancellationDecisionInputSchema = z.object({
  decision: z.enum(['APPROVED', 'DECLINED'], { error: CANCELLATION_MESSAGES.decisionRequired }),
  reason: multiLine(
    z
      .string({ error: CANCELLATION_MESSAGES.decisionReasonRequired })
      .trim()
      .min(1, CANCELLATION_MESSAGES.decisionReasonRequired)
      .max(CANCELLATION_NOTE_MAX, `At most ${CANCELLATION_NOTE_MAX} characters`),
  ),
});
export type CancellationDecisionInput = z.infer<typeof cancellationDecisionInputSchema>;

/** A car park's charges as its landowner sees them: a page at a time, optionally one status. */
export const carParkChargesQuerySchema = paginationQuerySchema.extend({ status: z.enum(PCN_STATUSES).optional() });

/** The monthly report: a UK calendar month, YYYY-MM. */
export const monthlyReportQuerySchema = z.object({
  month: z.string({ error: CANCELLATION_MESSAGES.monthInvalid }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, CANCELLATION_MESSAGES.monthInvalid),
});
export type MonthlyReportQuery = z.infer<typeof monthlyReportQuerySchema>;

/** The rows a bulk action is for: at least one, at most MAX_BULK_ITEMS. */
function bulkIds(noun: string) {
  return z
    .array(idSchema)
    .min(1, `Please select at least one ${noun}`)
    .max(MAX_BULK_ITEMS, `Select at most ${MAX_BULK_ITEMS.toLocaleString('en-GB')} ${noun}s at once`);
}

/** POST /pcns/bulk-status: one status for every selected PCN, each checked and recorded on its own. */
export const bulkPcnStatusInputSchema = z.object({ ...statusChangeFields, pcnIds: bulkIds('PCN') }).superRefine(cancellationSaysWhy);
export type BulkPcnStatusInput = z.infer<typeof bulkPcnStatusInputSchema>;

/** POST /pcns/bulk-status/undo: the PCNs a bulk change moved to `status`, each moved back to the status it had. */
export const bulkPcnStatusUndoInputSchema = z.object({ status: z.enum(PCN_STATUSES), pcnIds: bulkIds('PCN') });
export type BulkPcnStatusUndoInput = z.infer<typeof bulkPcnStatusUndoInputSchema>;

/** POST /users/bulk-active: activate or deactivate every selected user, each checked on its own. */
export const bulkUserActiveInputSchema = z.object({
  userIds: bulkIds('user'),
  isActive: z.boolean({ error: 'Say whether the users become active (true) or inactive (false)' }),
});
export type BulkUserActiveInput = z.infer<typeof bulkUserActiveInputSchema>;

// ---- onboarding and tracking ----
const adminNotesSchema = multiLine(z.string().max(2000))
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));
export const sendOnboardingInputSchema = z.object({ adminNotes: adminNotesSchema });
export const sendBulkOnboardingInputSchema = z.object({
  userIds: z.array(idSchema).min(1, 'Please select at least one user').max(500),
  adminNotes: adminNotesSchema,
});
export const heartbeatInputSchema = z.object({ path: singleLine(z.string().max(200)).optional() });

// ---- observations (the stay rule's two visits, docs/decisions/0012) ----
export const OBSERVATION_STATUSES = ['OPEN', 'GONE', 'ISSUED'] as const;
export type ObservationStatus = (typeof OBSERVATION_STATUSES)[number];

/** PUT /observations/{id}: what the phone knows of its observation. ISSUED comes only with the notice. */
export const saveObservationInputSchema = z.object({
  vehicleRegistration: registrationSchema,
  carParkId: singleLine(z.string({ error: V.carParkRequired }).trim().min(1, V.carParkRequired).max(64)),
  observedAt: z.iso.datetime({ offset: true, error: V.observedAtInvalid }),
  status: z.enum(['OPEN', 'GONE'], { error: "Status is 'OPEN' or 'GONE'" }),
  closedAt: z.iso.datetime({ offset: true, error: 'closedAt must be a date-time' }).nullable().optional(),
});
export type SaveObservationInput = z.infer<typeof saveObservationInputSchema>;

export const observationListQuerySchema = paginationQuerySchema.extend({
  officerId: idSchema.optional(),
  status: z.enum(OBSERVATION_STATUSES, { error: "Status is 'OPEN', 'GONE' or 'ISSUED'" }).optional(),
});
export type ObservationListQuery = z.infer<typeof observationListQuerySchema>;

/** An observation as the API answers it. */
export type Observation = {
  id: string;
  officer: { id: string; firstName: string; lastName: string } | null;
  carPark: { id: string; name: string };
  vehicleRegistration: string;
  observedAt: string;
  dueAt: string;
  status: ObservationStatus;
  closedAt: string | null;
  pcnId: string | null;
  pcnNumber: string | null;
  updatedAt: string;
};
export type ObservationListResponse = {
  observations: Observation[];
  pagination: { page: number; limit: number; total: number; pages: number };
};

/**
 * POST /client-errors: an uncaught error of the web app, with the build it came from, so a
 * stack can be read against that build's source maps. Bounded, and the page is its path only
 * (a query can hold a registration or a token).
 */
export const clientErrorReportSchema = z.object({
  message: multiLine(z.string().min(1).max(1000)),
  stack: multiLine(z.string().max(8000)).optional(),
  page: singleLine(
    z
      .string()
      .max(500)
      .regex(/^\/[^?#]*$/, 'A path without query or fragment'),
  ),
  buildId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.-]+$/),
});
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;

// ---- notices to keeper ----
const pcnIdList = z
  .array(idSchema, { error: 'Choose the notices' })
  .min(1, 'Choose at least one notice')
  .max(200, 'At most 200 notices at a time');
/** A calendar day, YYYY-MM-DD, that exists. (A declaration, so the hirer's schema above can use it.) */
function calendarDay(message: string) {
  return z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine(
      (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      'Give a real date',
    );
}
/** `postOn`: the day the letters will be posted, printed as their date sent; today (UK) when not given. */
export const keeperLettersInputSchema = z.object({
  pcnIds: pcnIdList,
  postOn: calendarDay('Give the day the letters will be posted').optional(),
});
/**
 * POST /keeper-notices/batches: a day's notices to keeper, made as a job; far more than one
 * request's 200, since the request only checks and stores the list.
 */
export const keeperLetterBatchInputSchema = z.object({
  pcnIds: z
    .array(idSchema, { error: 'Choose the notices' })
    .min(1, 'Choose at least one notice')
    .max(MAX_LETTER_BATCH, `At most ${MAX_LETTER_BATCH} notices in one batch`),
  postOn: calendarDay('Give the day the letters will be posted').optional(),
});
/** POST /pcns/{id}/letters: a notice to hirer or to the named driver, dated for posting on `postOn` (today, UK, when not given). */
export const pcnLetterInputSchema = z.object({
  kind: z.enum(PCN_LETTER_KINDS, { error: 'Choose the letter' }),
  postOn: calendarDay('Give the day the letter will be posted').optional(),
});
export const pcnLetterPostedInputSchema = z.object({
  kind: z.enum(PCN_LETTER_KINDS, { error: 'Choose the letter' }),
  postedOn: calendarDay('Give the day the letter was posted'),
  proofReference: singleLine(z.string().trim().max(100, 'At most 100 characters')).default(''),
});
export const keeperNoticesPostedInputSchema = z.object({
  pcnIds: pcnIdList,
  postedOn: calendarDay('Give the day the letters were posted'),
  proofReference: singleLine(z.string().trim().max(100, 'At most 100 characters')).default(''),
});

// ---- the chase after the notice to keeper (decision 0039) ----
const collectionLetterKind = z.enum(COLLECTION_LETTER_KINDS, { error: 'Choose reminders or letters before claim' });
/** GET /collection-letters: the charges whose letter of `kind` is due. */
export const collectionLettersQuerySchema = z.object({ kind: collectionLetterKind });
/** POST /collection-letters/letters: letters of `kind` dated for posting on `postOn` (today, UK, when not given). */
export const collectionLettersInputSchema = z.object({
  kind: collectionLetterKind,
  pcnIds: pcnIdList,
  postOn: calendarDay('Give the day the letters will be posted').optional(),
});
export const collectionLettersPostedInputSchema = z.object({
  kind: collectionLetterKind,
  pcnIds: pcnIdList,
  postedOn: calendarDay('Give the day the letters were posted'),
  proofReference: singleLine(z.string().trim().max(100, 'At most 100 characters')).default(''),
});

/** POST /debt-recovery/exports: the charges to hand to the debt recovery agency, all or none (decision 0040). */
export const debtRecoveryExportInputSchema = z.object({
  pcnIds: z.array(idSchema, { error: 'Choose the charges' }).min(1, 'Choose at least one charge').max(200, 'At most 200 charges at a time'),
});
/** POST /debt-recovery/updates: the agency's CSV of outcomes, as read in the browser; `preview` checks it and changes nothing. */
export const debtRecoveryUpdatesInputSchema = z.object({
  fileName: singleLine(z.string().trim().max(200)).default(''),
  // Its cells become payment references and history notes: lines and tabs only, no other controls.
  csv: multiLine(
    z
      .string({ error: 'Choose or paste the agency’s CSV of outcomes' })
      .trim()
      .min(1, 'Choose or paste the agency’s CSV of outcomes')
      .max(900_000, 'The file is too large: import at most 2,000 rows at a time'),
  ),
  preview: z.boolean().default(false),
});

// ---- the motorist's lookup ----
export const chargeLookupInputSchema = z.object({
  reference: singleLine(
    z
      .string({ error: 'Enter the charge reference' })
      .trim()
      .min(1, 'Enter the charge reference')
      .max(20, 'Enter the charge reference as it is on your notice'),
  ),
  registration: singleLine(
    z
      .string({ error: 'Enter the vehicle registration' })
      .trim()
      .min(1, 'Enter the vehicle registration')
      .max(15, 'Enter the vehicle registration'),
  ),
  /** The answer to the challenge a 429 gave, once a reference, registration or address has had too many wrong tries. */
  proof: z.string().max(200, 'Look the charge up again').optional(),
});

// ---- payments ----
export const paymentInputSchema = z.object({
  amountPence: z
    .number({ error: 'Enter the amount paid' })
    .int('Enter the amount paid')
    .min(1, 'Enter the amount paid')
    .max(100_000, 'At most £1,000'),
  paidOn: z
    .string({ error: 'Give the day it was paid' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Give the day it was paid')
    .refine(
      (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      'Give a real date',
    ),
  method: z.enum(PAYMENT_METHODS, { error: 'Choose how it was paid' }),
  reference: singleLine(z.string().trim().max(100, 'At most 100 characters')).default(''),
});

// ---- appeals ----
const appealText = (required: string, max: number) =>
  multiLine(
    z
      .string({ error: required })
      .trim()
      .min(1, required)
      .max(max, `At most ${max.toLocaleString('en-GB')} characters`),
  );

/** The motorist's appeal: the multipart form's text fields (the attachments travel beside them). */
export const appealInputSchema = z
  .object({
    name: termsLine('Give your name', 100),
    email: emailSchema,
    address: appealText('Give your postal address', 300),
    wasDriver: z.enum(['yes', 'no'], { error: 'Say whether you were the driver' }).transform((value) => value === 'yes'),
    driverName: singleLine(z.string().trim().max(100, 'At most 100 characters')).default(''),
    driverAddress: multiLine(z.string().trim().max(300, 'At most 300 characters')).default(''),
    reason: z.enum(APPEAL_REASONS, { error: 'Choose the reason for your appeal' }),
    text: appealText('Tell us why the charge should be cancelled', APPEAL_TEXT_MAX),
  })
  .transform((appeal) => (appeal.wasDriver ? { ...appeal, driverName: '', driverAddress: '' } : appeal));
export type AppealInput = z.output<typeof appealInputSchema>;

/**
 * An appeal that came by email, post or phone, entered by an admin (POST /appeals, multipart
 * beside its attachments): the charge, how and on which day it came, and the appellant's words.
 * Only an appeal by post may come without an email address. The day is checked against today and
 * the charge's first notice by the API.
 */
export const enteredAppealInputSchema = z
  .object({
    pcnId: singleLine(z.string({ error: 'Choose the charge' }).trim().min(1, 'Choose the charge').max(64)),
    channel: z.enum(ENTERED_APPEAL_CHANNELS, { error: 'Choose how the appeal came' }),
    receivedOn: calendarDate,
    name: termsLine('Give the appellant’s name', 100),
    email: singleLine(z.string().trim().max(254, V.emailInvalid)).default(''),
    address: appealText('Give the appellant’s postal address', 300),
    wasDriver: z.enum(['yes', 'no'], { error: 'Say whether the appellant was the driver' }).transform((value) => value === 'yes'),
    driverName: singleLine(z.string().trim().max(100, 'At most 100 characters')).default(''),
    driverAddress: multiLine(z.string().trim().max(300, 'At most 300 characters')).default(''),
    reason: z.enum(APPEAL_REASONS, { error: 'Choose the reason for the appeal' }),
    text: appealText('Give the appeal’s words, or a note of the call', APPEAL_TEXT_MAX),
  })
  .superRefine((appeal, ctx) => {
    if (appeal.email === '') {
      if (appeal.channel !== 'POST') ctx.addIssue({ code: 'custom', path: ['email'], message: APPEAL_MESSAGES.emailNeeded });
    } else if (!z.email().safeParse(appeal.email).success) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: V.emailInvalid });
    }
  })
  .transform((appeal) => ({
    ...appeal,
    email: appeal.email === '' ? null : appeal.email.toLowerCase(),
    ...(appeal.wasDriver && { driverName: '', driverAddress: '' }),
  }));
export type EnteredAppealInput = z.output<typeof enteredAppealInputSchema>;

export const appealDecisionInputSchema = z
  .object({
    outcome: z.enum(APPEAL_OUTCOMES, { error: 'Choose a decision' }),
    reasons: multiLine(
      z
        .string({ error: 'Give the reasons for the decision' })
        .trim()
        .max(APPEAL_TEXT_MAX, `At most ${APPEAL_TEXT_MAX.toLocaleString('en-GB')} characters`),
    ).default(''),
    reducedChargePence: z
      .number({ error: 'Enter the reduced amount' })
      .int('Enter the reduced amount')
      .min(1, 'Enter the reduced amount')
      .max(100_000, 'At most £1,000')
      .nullish(),
    /** The Appeals Charter case the admin followed (APPEALS_CHARTER), if any. */
    charterOutcome: z.enum(CHARTER_CASES, { error: 'Choose a case of the Appeals Charter' }).nullish(),
  })
  .superRefine((decision, ctx) => {
    // Following the Charter: a case to cancel is an acceptance; one to reduce, at most £20.
    if (decision.charterOutcome) {
      const cancels = APPEALS_CHARTER[decision.charterOutcome].outcome === 'CANCEL';
      const matches = cancels
        ? decision.outcome === 'ACCEPTED'
        : decision.outcome === 'ACCEPTED_REDUCED' &&
          (decision.reducedChargePence == null || decision.reducedChargePence <= CHARTER_REDUCED_PENCE);
      if (!matches) ctx.addIssue({ code: 'custom', path: ['charterOutcome'], message: APPEAL_MESSAGES.charterOutcomeDiffers });
    }
    // The Single Code: a rejection answers what was raised, in writing.
    if (decision.outcome === 'REJECTED' && decision.reasons === '') {
      ctx.addIssue({ code: 'custom', path: ['reasons'], message: 'Give the reasons for rejecting the appeal' });
    }
    if (decision.outcome === 'ACCEPTED_REDUCED' && decision.reducedChargePence == null) {
      ctx.addIssue({ code: 'custom', path: ['reducedChargePence'], message: 'Enter the reduced amount' });
    }
  });
export type AppealDecisionInput = z.output<typeof appealDecisionInputSchema>;

/** POST /appeals/{id}/set-aside: why an open appeal is not the motorist's (decision 0032). */
export const setAsideAppealInputSchema = z.object({
  reason: multiLine(
    z
      .string({ error: 'Say why the appeal is set aside' })
      .trim()
      .min(1, 'Say why the appeal is set aside')
      .max(APPEAL_TEXT_MAX, `At most ${APPEAL_TEXT_MAX.toLocaleString('en-GB')} characters`),
  ),
});
export type SetAsideAppealInput = z.output<typeof setAsideAppealInputSchema>;
/** The confirmation link's token, as the /charge/confirm-appeal page posts it. */
export const confirmAppealInputSchema = z.object({ token: z.string().min(1).max(200) });
/** Withdrawing an appeal from /charge: the email the appeal gave, which the windscreen's details alone do not tell (decision 0044). */
export const withdrawAppealInputSchema = z.object({ email: emailSchema });

export const appealListQuerySchema = paginationQuerySchema.extend({
  status: z.enum(APPEAL_STATUSES).optional(),
  /** The appeal or charge reference, the registration, the appellant's name or the verification code. */
  search: singleLine(z.string().trim().max(100)).optional(),
  ...sortSchema(APPEAL_SORT_KEYS),
});
export type AppealListQuery = z.infer<typeof appealListQuerySchema>;

// ---- refunds and money at a glance ----
export const refundInputSchema = z.object({
  paymentId: singleLine(z.string({ error: REFUND_MESSAGES.paymentNotFound }).trim().min(1, REFUND_MESSAGES.paymentNotFound).max(64)),
  amountPence: z
    .number({ error: REFUND_MESSAGES.amountRequired })
    .int(REFUND_MESSAGES.amountRequired)
    .min(1, REFUND_MESSAGES.amountRequired)
    .max(100_000, 'At most £1,000'),
  reason: multiLine(
    z
      .string({ error: REFUND_MESSAGES.reasonRequired })
      .trim()
      .min(1, REFUND_MESSAGES.reasonRequired)
      .max(REFUND_REASON_MAX_LENGTH, REFUND_MESSAGES.reasonTooLong),
  ),
  /**
   * A card payment taken online is refunded through the card processor; only with this does an
   * admin record one as refunded by hand (made in the processor's own dashboard).
   */
  byHand: z.boolean().optional().default(false),
});

const weeksMessage = `Weeks: 1 to ${MONEY_WEEKS.most}`;
export const moneyAnalyticsQuerySchema = z.object({
  carParkId: idSchema.optional(),
  weeks: z.coerce
    .number({ error: weeksMessage })
    .int(weeksMessage)
    .min(1, weeksMessage)
    .max(MONEY_WEEKS.most, weeksMessage)
    .default(MONEY_WEEKS.default),
});
export type MoneyAnalyticsQuery = z.infer<typeof moneyAnalyticsQuerySchema>;

export const paymentsExportQuerySchema = z
  .object({ carParkId: idSchema.optional(), from: calendarDate.optional(), to: calendarDate.optional() })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: 'The first day is after the last', path: ['to'] });
export type PaymentsExportQuery = z.infer<typeof paymentsExportQuerySchema>;

// ---- permits ----
/** A permit's start or end: a day (2026-12-31, the whole UK day) or an ISO time with its offset. */
function permitInstant(edge: 'start' | 'end', message: string) {
  return z.union([calendarDate, z.iso.datetime({ offset: true })], { error: message }).transform((value) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return edge === 'start' ? permitStartOfDay(value) : permitEndOfDay(value);
    return new Date(value).toISOString();
  });
}
const permitFields = {
  vehicleRegistration: registrationSchema,
  kind: z.enum(PERMIT_KINDS, { error: `Kind is one of ${PERMIT_KINDS.join(', ')}` }),
  validFrom: permitInstant('start', 'Use a date like 2026-01-31'),
  validUntil: permitInstant('end', 'Use a date like 2026-12-31').nullable(),
  note: multiLine(z.string().trim().max(PERMIT_NOTE_MAX_LENGTH, `The note must be at most ${PERMIT_NOTE_MAX_LENGTH} characters`)),
};
const endsAfterItStarts = (permit: { validFrom?: string; validUntil?: string | null }) =>
  !permit.validFrom || !permit.validUntil || permit.validUntil >= permit.validFrom;
const endsAfterItStartsMessage = { message: 'The permit must end after it starts', path: ['validUntil'] };

/** POST /car-parks/:id/permits: from today and open-ended unless said otherwise. */
export const permitInputSchema = z
  .object({
    ...permitFields,
    validFrom: permitFields.validFrom.optional(),
    validUntil: permitFields.validUntil.optional().default(null),
    note: permitFields.note.default(''),
  })
  .refine(endsAfterItStarts, endsAfterItStartsMessage);
export type PermitInput = z.infer<typeof permitInputSchema>;

/** PUT /car-parks/:id/permits/:permitId: only the fields sent change. */
export const updatePermitInputSchema = z.object(permitFields).partial().refine(endsAfterItStarts, endsAfterItStartsMessage);
export type UpdatePermitInput = z.infer<typeof updatePermitInputSchema>;

/** GET /car-parks/:id/permits: those in force or to come, or 'all' with the ended and expired. */
export const permitListQuerySchema = z.object({
  status: z.enum(['current', 'all'], { error: "Status is 'current' or 'all'" }).default('current'),
});

/** POST /car-parks/:id/permits/import: the CSV file's text, as read in the browser. */
export const permitImportInputSchema = z.object({
  fileName: singleLine(z.string().trim().max(200)).default(''),
  csv: z
    .string({ error: 'Choose a CSV file of permits' })
    .min(1, 'The file is empty')
    .max(900_000, `The file is too large: import at most ${PERMIT_IMPORT_MAX_ROWS.toLocaleString('en-GB')} rows at a time`),
});

/** GET /permits/sync: the phone's last `syncedAt`; absent for the whole list. */
export const permitSyncQuerySchema = z.object({ since: z.iso.datetime({ offset: true, error: 'Since is an ISO time' }).optional() });

// ---- the visitor page ----
/** PUT /car-parks/:id/visitor: siteCode null closes the page; a code is needed while it is open. */
export const visitorPageSettingsInputSchema = z
  .object({
    siteCode: z.string().trim().toLowerCase().regex(VISITOR_SITE_CODE_PATTERN, VISITOR_TEXTS.siteCodeInvalid).nullable(),
    visitorCode: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{4,20}$/, VISITOR_TEXTS.visitorCodeInvalid)
      .nullable()
      .default(null),
    dailyLimit: z
      .number({ error: `A number from 1 to ${VISITOR_PAGE_LIMITS.mostDaily}` })
      .int()
      .min(1)
      .max(VISITOR_PAGE_LIMITS.mostDaily)
      .default(VISITOR_PAGE_LIMITS.defaultDaily),
  })
  .refine((settings) => settings.siteCode === null || settings.visitorCode !== null, {
    message: VISITOR_TEXTS.codeRequired,
    path: ['visitorCode'],
  });
export type VisitorPageSettingsInput = z.infer<typeof visitorPageSettingsInputSchema>;

/** POST /public/visit/:siteCode: the visitor's registration and the code shown at the site. */
export const visitorRegistrationInputSchema = z.object({
  vehicleRegistration: registrationSchema,
  visitorCode: singleLine(z.string({ error: VISITOR_TEXTS.codeRequired }).trim().min(1, VISITOR_TEXTS.codeRequired).max(40)),
});
