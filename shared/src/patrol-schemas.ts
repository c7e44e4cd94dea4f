import * as z from 'zod/mini';
import type { $ZodError } from 'zod/v4/core';
import { MIN_PASSWORD_LENGTH } from './limits.ts';
import { VALIDATION_MESSAGES as V } from './messages.ts';
import { OFFENCE_TYPES } from './offence-types.ts';
import { normaliseRegistration, REGISTRATION_PATTERN } from './format.ts';
import { DUPLICATE_REASON_MAX_LENGTH } from './duplicates.ts';
import { NOTICE_SERVED_BY } from './keeper-liability.ts';
import { PERMIT_OVERRIDE_REASON_MAX_LENGTH, PERMIT_TEXTS } from './permit-check.ts';

/*
 * The schemas an officer's phone checks with no signal: signing in and filing a notice. They are
 * written with zod's functional API (zod/mini), which a bundler can cut down to the checks used;
 * the rest of the schemas (schemas.ts) use the classic API, which carries every method on every
 * schema, and load only on the screens that need them (decision 0055). The API checks the same
 * input with these same schemas, so the form and the server refuse it in the same words.
 */

/**
 * Line breaks and other control characters in a single-line field turn into fake header or
 * body lines in plain-text emails (a name of "Eve\r\nBcc: x@y"), so they are refused here, for
 * the form and the API alike.
 */
export function hasControlCharacters(value: string): boolean {
  // The C0 and C1 controls (Cc), the line and paragraph separators (U+2028, U+2029: line breaks
  // to many readers), the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E,
  // U+200F, U+202A-U+202E, U+2066-U+2069), which can make a name read backwards in a list or an
  // email, and the zero-width space, word joiner and byte-order mark (U+200B, U+2060, U+FEFF),
  // which make two names that look the same differ, or hide text inside a word. Not every
  // invisible format character: the zero-width joiner and non-joiner (U+200D, U+200C) are how an
  // emoji sequence is written and how a Persian or Urdu name is spelt, the tag characters make the
  // flags of England, Scotland and Wales, and a soft hyphen (U+00AD) pasted from a document only
  // marks where a word may break.
  return /[\p{Cc}\p{Zl}\p{Zp}\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u.test(value);
}

/**
 * The same for a field of several lines (an address, an appeal's words, reasons): a line break
 * (as a form sends it, CRLF, or LF) and a tab are its own, every other control or invisible
 * character is refused: a NUL or an ESC in an appeal's text reaches the letter, the CSV and the
 * terminal of whoever reads the log.
 */
export function hasControlCharactersInText(value: string): boolean {
  return hasControlCharacters(value.replace(/\r\n|[\n\t]/g, ' '));
}

/** The checks behind both rules, for a string schema of either API (`schema.check(...)`). */
export const singleLineCheck = z.refine<string>((value) => !hasControlCharacters(value), V.noControlCharacters);
export const multiLineCheck = z.refine<string>((value) => !hasControlCharactersInText(value), V.noControlCharactersInText);

/** Turns zod issues into `{ field: message }`, first message per field. */
export function fieldErrors(error: $ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/**
 * A text field trimmed, with at most `max` characters (`tooLong` says so, else zod's own words),
 * on one line or several; `required` says what is missing when it is empty.
 */
const trimmedText = (max: number, tooLong: string | undefined, lines: 'single' | 'multi', required?: string) =>
  z
    .string(required ? { error: required } : undefined)
    .check(
      z.trim(),
      ...(required ? [z.minLength(1, required)] : []),
      z.maxLength(max, tooLong),
      lines === 'single' ? singleLineCheck : multiLineCheck,
    );

/**
 * One schema, both sides: the web form shows these messages per field and the API refuses
 * the same input with the same words.
 */
export const emailSchema = z.pipe(
  z.pipe(
    z.string({ error: V.emailRequired }).check(z.trim(), z.minLength(1, V.emailRequired), z.maxLength(254, V.emailInvalid)),
    z.email({ error: V.emailInvalid }),
  ),
  z.transform((email: string) => email.toLowerCase()),
);

export const passwordSchema = z
  .string({ error: V.passwordRequired })
  .check(
    z.minLength(1, V.passwordRequired),
    z.minLength(MIN_PASSWORD_LENGTH, V.passwordTooShort),
    z.maxLength(200, 'Password must be at most 200 characters'),
  );

/** The sign-in form enforces the password's length rule; the API accepts any stored password. */
export const signInFormSchema = z.object({ email: emailSchema, password: passwordSchema });
export const forgotPasswordInputSchema = z.object({ email: emailSchema });

/** A registration as the officer types it: spaces and case do not matter, the DVLA's shapes do. */
export const registrationSchema = z.pipe(
  z.pipe(z.string({ error: V.registrationRequired }), z.transform(normaliseRegistration)),
  z.string().check(z.minLength(1, V.registrationRequired), z.regex(REGISTRATION_PATTERN, V.registrationInvalid)),
);

const optionalDateTime = (error: string) => z.optional(z.iso.datetime({ offset: true, error }));

/** The text fields of a PCN, as sent by the form (multipart fields, all strings). */
export const pcnFieldsObject = z.object({
  vehicleRegistration: registrationSchema,
  carParkId: trimmedText(64, undefined, 'single', V.carParkRequired),
  offenceType: z.enum(OFFENCE_TYPES, { error: V.offenceTypeRequired }),
  description: z._default(trimmedText(2000, V.descriptionTooLong, 'multi'), ''),
  location: trimmedText(200, V.locationTooLong, 'single', V.locationRequired),
  observedAt: optionalDateTime(V.observedAtInvalid),
  /** When the notice is issued; the server uses its receipt time when absent. */
  issuedAt: optionalDateTime(V.issuedAtInvalid),
  /** Multipart text 'true' or 'false'; absent: the car park's default. */
  stayApplies: z.optional(
    z.pipe(
      z.enum(['true', 'false'], { error: V.stayAppliesInvalid }),
      z.transform((v: 'true' | 'false') => v === 'true'),
    ),
  ),
  /** Why the officer continued although the same parking event already has a PCN. */
  duplicateReason: z.optional(trimmedText(DUPLICATE_REASON_MAX_LENGTH, V.duplicateReasonTooLong, 'multi')),
  /** Why the officer issued although the registration holds a permit valid here (checked again at filing). */
  permitOverrideReason: z.optional(trimmedText(PERMIT_OVERRIDE_REASON_MAX_LENGTH, PERMIT_TEXTS.overrideTooLong, 'multi')),
  /** How the notice to driver was served: the route to keeper liability (decision 0016). */
  noticeServedBy: z.enum(NOTICE_SERVED_BY, { error: V.noticeServedByRequired }),
  /** When it was served (or the driver left); the notice's issuedAt when absent. */
  noticeServedAt: optionalDateTime(V.noticeServedAtInvalid),
  /** The start of the period of parking: the first sighting, else when the officer began the notice; the first sighting, else the service, when absent. */
  firstSeenAt: optionalDateTime(V.firstSeenAtInvalid),
});
/** Whether an offence type needs the officer's words: 'Other' says nothing of what the driver did. */
export function needsDescription(offenceType: string): boolean {
  return offenceType === 'OTHER';
}
function lacksDescription(fields: { offenceType?: unknown; description?: unknown }): boolean {
  return typeof fields.offenceType === 'string' && needsDescription(fields.offenceType) && String(fields.description ?? '').trim() === '';
}
export const pcnFieldsSchema = pcnFieldsObject.check(
  z.refine((fields) => !lacksDescription(fields), {
    path: ['description'],
    message: V.descriptionRequiredForOther,
    // Checked with the other fields' problems too, so the form shows every one at once.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  }),
);
export type PcnFields = z.infer<typeof pcnFieldsSchema>;

/** Which wizard step each field lives on, so errors show where the officer can fix them. */
export const PCN_FIELD_STEPS: Record<keyof PcnFields | 'images', number> = {
  vehicleRegistration: 0,
  carParkId: 0,
  offenceType: 1,
  description: 1,
  location: 1,
  // The observation sits under the car park: a stay's first sighting is asked before anything else.
  observedAt: 0,
  issuedAt: 0,
  stayApplies: 0,
  duplicateReason: 0,
  permitOverrideReason: 0,
  noticeServedBy: 3,
  noticeServedAt: 3,
  firstSeenAt: 3,
  images: 2,
};
