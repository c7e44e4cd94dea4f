import {
  COLLECTION_SETTING_DEFAULTS,
  mayChangePaymentDetails,
  PAYMENT_DETAIL_FIELDS,
  PAYMENT_DETAILS_MESSAGE,
  type OperatorSettingsResponse,
  type OperatorTerms,
  type OperatorTermsInput,
  type PublicOperator,
} from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { diffTerms, findOperatorSettings, insertOperatorTerms, listOperatorTermsChanges } from '../repositories/terms.ts';
import { readOperatorLogoUrl } from './operator-logo.ts';

/** The operator's terms with their recent changes, as the settings screen shows them. */
export async function readOperatorSettings(db: Db): Promise<OperatorSettingsResponse> {
  const [operator, changes, logoUrl] = await Promise.all([findOperatorSettings(db), listOperatorTermsChanges(db), readOperatorLogoUrl(db)]);
  return { operator, changes, logoUrl };
}

/** Whose charges /charge looks up, for the top of its lookup: the creditor as the settings now name it (null before they are saved), and their logo. */
export async function readPublicOperator(db: Db): Promise<PublicOperator> {
  const [settings, logoUrl] = await Promise.all([findOperatorSettings(db), readOperatorLogoUrl(db)]);
  return { name: settings?.creditorName ?? null, logoUrl };
}

/** What the officer's notice to driver prints about the operator: the terms alone, not who changed them. */
export async function readNoticeTerms(db: Db) {
  const settings = await findOperatorSettings(db);
  if (!settings) return null;
  const { updatedAt: _at, updatedBy: _by, ...terms } = settings;
  return terms;
}

/**
 * Saves the operator's terms as a new row of their history (decision 0017), with who changed
 * what, from what, to what; saving them unchanged writes nothing. Notices already issued keep the
 * row they point at. The payment details (PAYMENT_DETAIL_FIELDS) are a SUPER_ADMIN's to change:
 * an ADMIN's save that would change them is refused 403 naming the field, and nothing is saved.
 */
export async function changeOperatorTerms(db: Db, input: OperatorTermsInput, user: AuthUser, now: Date): Promise<OperatorSettingsResponse> {
  await db.transaction().execute(async (trx) => {
    const current = await findOperatorSettings(trx);
    const before = current && (({ updatedAt: _at, updatedBy: _by, ...terms }) => terms)(current);
    // The chase's settings left out of a save keep the values in force (or their defaults).
    const terms: OperatorTerms = {
      ...input,
      reminderAfterDays: input.reminderAfterDays ?? before?.reminderAfterDays ?? COLLECTION_SETTING_DEFAULTS.reminderAfterDays,
      letterBeforeClaimAfterDays:
        input.letterBeforeClaimAfterDays ?? before?.letterBeforeClaimAfterDays ?? COLLECTION_SETTING_DEFAULTS.letterBeforeClaimAfterDays,
      debtRecoveryFeePence: input.debtRecoveryFeePence ?? before?.debtRecoveryFeePence ?? COLLECTION_SETTING_DEFAULTS.debtRecoveryFeePence,
    };
    const changes = diffTerms(before, terms);
    if (Object.keys(changes).length === 0) return;
    const paymentDetails = PAYMENT_DETAIL_FIELDS.filter((field) => field in changes);
    if (paymentDetails.length > 0 && !mayChangePaymentDetails(user.role)) {
      throw new AppError('FORBIDDEN', PAYMENT_DETAILS_MESSAGE, {
        details: Object.fromEntries(paymentDetails.map((field) => [field, PAYMENT_DETAILS_MESSAGE])),
      });
    }
    await insertOperatorTerms(trx, {
      terms,
      changes,
      actor: { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() },
      now: now.toISOString(),
    });
  });
  return readOperatorSettings(db);
}
