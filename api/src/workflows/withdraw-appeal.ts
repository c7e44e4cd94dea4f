import { APPEAL_MESSAGES, type AppealWithdrawal } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import type { RateLimiter, RateLimitRule } from '../auth/rate-limit.ts';
import { withdrawnAppealOf } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import { findAppealByPcnId, recordWithdrawal } from '../repositories/appeals.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { lockPcnWrites } from '../repositories/pcn-writes.ts';
import { askForAppealEmail } from './appeal-emails.ts';
import { tooManyAttempts } from './auth-limits.ts';
import { chargeFactsOf } from './look-up-charge.ts';

/**
 * Tries at withdrawing one charge's appeal, in any hour, from anywhere: the email the appeal gave is
 * what proves the withdrawer made it, and this keeps it from being guessed. A stranger who uses them
 * up delays the motorist's withdrawal by an hour at most; it takes nothing from their appeal.
 */
export const APPEAL_WITHDRAWALS_PER_CHARGE: RateLimitRule = { scope: 'appeal-withdrawals-per-charge', limit: 5, windowMs: 60 * 60 * 1000 };

/**
 * POST /public/charges/current/appeal/withdraw (decision 0044): the motorist, on their charge's
 * page, withdraws their appeal while it awaits our decision. The appeal keeps its row and its
 * reference, marked WITHDRAWN with the moment; from then it holds nothing, so the charge reads as
 * it would have without the hold (amountDue), the reduced amount kept 14 days where the appeal
 * held it while the reduction applied (withdrawnAppealOf). The charge's status is not touched:
 * an appeal never changed it. It stays the charge's one appeal, so no other follows online.
 * A decided or already withdrawn appeal is 409. The windscreen's details open the charge's page
 * to anyone, so the request must give the email address the appeal gave (400 naming `email`
 * otherwise; an appeal by post that gave none is withdrawn by writing, 409), and tries are counted
 * per charge before anything is read (429). Audited; the motorist is emailed a record.
 */
export async function withdrawAppeal(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'logger'>,
  limits: RateLimiter,
  input: { pcnId: string; email: string; now: Date },
): Promise<AppealWithdrawal> {
  const limit = await limits.take([{ rule: APPEAL_WITHDRAWALS_PER_CHARGE, key: input.pcnId }]);
  if (limit.isLimited) throw tooManyAttempts(limit, APPEAL_MESSAGES.withdrawLimited);
  const at = input.now.toISOString();
  const { appeal } = await deps.db.transaction().execute(async (trx) => {
    await lockPcnWrites(trx);
    const row = await findPcnRowById(trx, input.pcnId);
    const appeal = row ? await findAppealByPcnId(trx, row.id) : undefined;
    if (!row || !appeal) throw new AppError('NOT_FOUND', APPEAL_MESSAGES.noAppealToWithdraw);
    if (appeal.status === 'WITHDRAWN') throw new AppError('CONFLICT', APPEAL_MESSAGES.alreadyWithdrawn);
    if (appeal.status !== 'OPEN') throw new AppError('CONFLICT', APPEAL_MESSAGES.withdrawDecided);
    if (appeal.appellant_email === '') throw new AppError('CONFLICT', APPEAL_MESSAGES.withdrawNoEmail);
    if (appeal.appellant_email.toLowerCase() !== input.email) {
      throw new AppError('VALIDATION_FAILED', APPEAL_MESSAGES.withdrawWrongEmail, {
        details: { email: APPEAL_MESSAGES.withdrawWrongEmail },
      });
    }
    const facts = await chargeFactsOf(trx, row, () => '');
    const withdrawn = withdrawnAppealOf(facts, input.now)!;
    const withdrawal = { withdrawn_at: at, reduced_held_until: withdrawn.reducedHeldUntil };
    if (!(await recordWithdrawal(trx, appeal.id, withdrawal))) throw new AppError('CONFLICT', APPEAL_MESSAGES.withdrawDecided);
    await insertAuditEntries(trx, [
      auditEntry(row.id, 'appeal_withdrawn', { id: null, firstName: `${appeal.appellant_name} (appellant)`, lastName: '' }, null, at, {
        appeal: { from: null, to: appeal.reference },
        status: { from: 'OPEN', to: 'WITHDRAWN' },
        ...(withdrawal.reduced_held_until !== null && { reducedHeldUntil: { from: null, to: withdrawal.reduced_held_until } }),
      }),
    ]);
    return { appeal: { ...appeal, ...withdrawal, status: 'WITHDRAWN' as const } };
  });
  await askForAppealEmail(deps, appeal, 'withdrawn');
  return { reference: appeal.reference, withdrawnAt: at };
}
