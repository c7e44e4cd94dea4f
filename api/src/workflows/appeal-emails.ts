import { APPEAL_CHANNEL_LABELS, APPEAL_STATUS_LABELS, formatCalendarDate, formatPence, pcnTitle, ukDate } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { amountDueOf } from '../domain/public-charge.ts';
import { AppError } from '../http/app-error.ts';
import type { AppealEmailKind } from '../jobs/job-queue.ts';
import { findAppealById, type AppealRow } from '../repositories/appeals.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { escapeHtml, type MailMessage } from '../services/mail.ts';
import { keptAppealLetter } from './appeal-letter.ts';
import { chargeFactsOf } from './look-up-charge.ts';

/**
 * The motorist's emails about an appeal: received, withdrawn, decided (with its letter). Each
 * is a job (jobs/job-queue.ts), asked for once the change is committed and written from the
 * appeal as it then stands. The request does not wait on the mail server, a refused delivery
 * is tried again with the queue's backoff, and the queue holds an id, never a message. A job
 * tried again after a delivery whose success was not recorded sends it twice: a second copy of
 * a receipt, never a lost one.
 */
export type AppealEmailDeps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'evidence' | 'metrics' | 'now'>;

/** Asks for the email once the appeal's change is stored; a queue that cannot take it is logged, never an undone change. */
export async function askForAppealEmail(deps: Pick<AppDeps, 'jobs' | 'logger'>, appeal: AppealRow, kind: AppealEmailKind): Promise<void> {
  // An appeal by post without an email address is answered by post: its letters are downloadable.
  if (appeal.appellant_email === '') return;
  try {
    await deps.jobs.send('appealEmail', { appealId: appeal.id, kind });
  } catch (error) {
    deps.logger.warn('appeal email not asked for', { appeal: appeal.reference, kind, error: String(error) });
  }
}

/** The job: the email of this kind, from the appeal as it stands; nothing when the appeal or its charge is gone. */
export async function sendAppealEmail(deps: AppealEmailDeps, job: { appealId: string; kind: AppealEmailKind }): Promise<void> {
  const appeal = await findAppealById(deps.db, job.appealId);
  const row = appeal && (await findPcnRowById(deps.db, appeal.pcn_id));
  if (!appeal || !row || appeal.appellant_email === '') return;
  const chargeReference = pcnTitle(row.pcn_number);
  const lookupUrl = `${deps.config.appUrl}/charge?ref=${encodeURIComponent(chargeReference)}`;
  let email: Omit<MailMessage, 'to' | 'text' | 'html'> & { lines: string[] };
  if (job.kind === 'received') email = received(appeal, chargeReference, lookupUrl);
  else if (job.kind === 'withdrawn') {
    const due = amountDueOf(await chargeFactsOf(deps.db, row, () => ''), deps.now());
    email = withdrawn(appeal, chargeReference, lookupUrl, due);
  } else {
    const letter = await keptAppealLetter(deps, appeal, deps.now()).catch((error: unknown) => {
      // No operator terms yet, so no letter can be made (the decision stands without one): the
      // email goes without it rather than failing every try.
      if (error instanceof AppError && error.code === 'CONFLICT') return null;
      throw error;
    });
    email = {
      ...decided(appeal, letter !== null),
      ...(letter && { attachments: [{ filename: letter.fileName, content: Buffer.from(letter.bytes), contentType: 'application/pdf' }] }),
    };
  }
  const { lines, ...message } = email;
  await deps.mailer.send({
    to: appeal.appellant_email,
    text: lines.join('\n\n'),
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
    ...message,
  });
}

/** The acknowledgement: when it came, whether the charge is on hold, and when we will answer. */
function received(appeal: AppealRow, chargeReference: string, lookupUrl: string) {
  const receivedOn = formatCalendarDate(ukDate(appeal.received_at));
  return {
    subject: `Appeal ${appeal.reference} received`,
    purpose: 'appeal-received',
    lines: [
      `Dear ${appeal.appellant_name},`,
      appeal.channel === 'ONLINE'
        ? `We have received your appeal ${appeal.reference} against parking charge ${chargeReference}.`
        : `We have received your appeal ${appeal.reference} against parking charge ${chargeReference}, by ${APPEAL_CHANNEL_LABELS[appeal.channel].toLowerCase()} on ${receivedOn}.`,
      appeal.is_late
        ? 'It came after the time to appeal had ended, so the charge is not on hold: we will tell you whether we will consider it.'
        : `The charge is on hold while we consider it: nothing more is added, and the amounts stand as they were ${appeal.channel === 'ONLINE' ? 'today' : `on ${receivedOn}`}.`,
      `We will answer by ${formatCalendarDate(appeal.respond_by)}. You can see where your appeal stands at ${lookupUrl}.`,
    ],
  };
}

/** The motorist's record of a withdrawal: what is due now that the hold has ended. */
function withdrawn(appeal: AppealRow, chargeReference: string, lookupUrl: string, due: ReturnType<typeof amountDueOf>) {
  return {
    subject: `Appeal ${appeal.reference} withdrawn`,
    purpose: 'appeal-withdrawn',
    lines: [
      `Dear ${appeal.appellant_name},`,
      `You withdrew your appeal ${appeal.reference} against parking charge ${chargeReference}. We will not decide it, and the charge is no longer on hold.`,
      due.amountDuePence > 0
        ? `${formatPence(due.amountDuePence)} is now due${due.reduced?.until ? `, the reduced amount, until ${formatCalendarDate(due.reduced.until)}` : ''}. You can pay, and see the charge, at ${lookupUrl}.`
        : `Nothing is due now. You can see the charge at ${lookupUrl}.`,
    ],
  };
}

/** The decision in a few lines; the letter attached sets it out in full. */
function decided(appeal: AppealRow, hasLetter: boolean) {
  return {
    subject: `Decision on your appeal ${appeal.reference}`,
    purpose: 'appeal-decision',
    lines: [
      `Dear ${appeal.appellant_name},`,
      `We have decided your appeal ${appeal.reference}: ${APPEAL_STATUS_LABELS[appeal.status].toLowerCase()}.`,
      ...(appeal.decision_reasons ? [appeal.decision_reasons] : []),
      ...(appeal.reduced_payable_until
        ? [`You may pay the reduced amount until ${formatCalendarDate(appeal.reduced_payable_until)}; after that the full charge is due.`]
        : []),
      ...(appeal.verification_code ? [`Your verification code for the independent appeals service: ${appeal.verification_code}.`] : []),
      ...(appeal.appeals_service_until
        ? [`You may appeal to the independent appeals service by ${formatCalendarDate(appeal.appeals_service_until)}.`]
        : []),
      hasLetter
        ? 'The letter attached sets out the decision in full. It is also on your charge’s page.'
        : 'The decision is also on your charge’s page.',
    ],
  };
}
