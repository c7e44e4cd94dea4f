import type { AmountDue } from './amount-due.ts';
import { formatCalendarDate } from './keeper-liability.ts';
import { formatPence } from './operator-terms.ts';
import { onFirstUse } from './on-first-use.ts';
import { UK_TIME_ZONE } from './uk-time-zone.ts';

/** A part of a printed notice or letter: an optional heading and its paragraphs. */
export type NoticeSection = { heading?: string; lines: string[] };

// Notices state UK time whatever the phone's or the server's zone: made once, when first used
// (building a formatter costs far more than using one).
const UK_TIME = onFirstUse(
  () => new Intl.DateTimeFormat('en-GB', { timeZone: UK_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
);
const UK_DAY = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: UK_TIME_ZONE,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }),
);

/** 'Friday 19 December 2025' in UK time, built from its parts: ICU versions differ on the comma after the weekday. */
function ukDay(at: Date): string {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    UK_DAY()
      .formatToParts(at)
      .find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')}`;
}

/** '10:24 on Friday 19 December 2025', in UK time. */
export function formatUkDateTime(iso: string): string {
  const at = new Date(iso);
  return `${UK_TIME().format(at)} on ${ukDay(at)}`;
}

/** 'from 10:02 to 10:24 on Friday 19 December 2025', over midnight with both days, or 'at ...' when the start is unknown. */
export function formatUkPeriod(startIso: string | null, endIso: string): string {
  const end = new Date(endIso);
  if (!startIso) return `at ${formatUkDateTime(endIso)}`;
  const start = new Date(startIso);
  const sameDay = ukDay(start) === ukDay(end);
  return sameDay
    ? `from ${UK_TIME().format(start)} to ${UK_TIME().format(end)} on ${ukDay(end)}`
    : `from ${formatUkDateTime(startIso)} to ${formatUkDateTime(endIso)}`;
}

/** Paragraph 7(2)(c) and 9(2)(c): the charge is unpaid, and how much, as at a stated time. */
export function describeChargeUnpaid(pence: number, asAt: string): string {
  return `The parking charge of ${formatPence(pence)} has not been paid. As at ${asAt}, ${formatPence(pence)} remains unpaid.`;
}

/**
 * What is due now, from amountDue, and what was paid towards it: "The amount now due is £40.00
 * (£100.00, less £60.00 already paid)." A charge with nothing left to pay says so.
 */
export function describeAmountDue(amount: AmountDue): string {
  const owed = amount.reduced?.amountPence ?? amount.chargePence ?? 0;
  if (amount.paidPence === 0) return `The amount now due is ${formatPence(amount.amountDuePence)}.`;
  if (amount.amountDuePence === 0) return `Nothing more is due: ${formatPence(amount.paidPence)} has been paid.`;
  return `The amount now due is ${formatPence(amount.amountDuePence)} (${formatPence(owed)}, less ${formatPence(amount.paidPence)} already paid).`;
}

/**
 * The amount a notice to keeper states as unpaid, as at the end of the day before it is sent
 * (Schedule 4, paragraph 8(2)(d) after a part payment, 9(2)(d) always), and what was paid by then.
 */
export function describeUnpaidAsAt(amount: AmountDue): string {
  const asAt = `23:59 on ${formatCalendarDate(amount.asOn)}`;
  const unpaid = formatPence(amount.unpaidPence);
  if (amount.paidPence === 0) return `As at ${asAt}, ${unpaid} remains unpaid.`;
  return `As at ${asAt}, ${formatPence(amount.paidPence)} has been paid and ${unpaid} remains unpaid.`;
}

/**
 * What every notice, the motorist's page and the decision letter say of the discount and an
 * appeal, in the Single Code's sense (8.1.2(d) and (e)): an appeal made within 28 days and rejected
 * keeps the amount that applied when it was made for 14 days more; the discount does not follow
 * the motorist to the independent appeals service.
 */
export function discountAndAppealStatements(appealsServiceName: string): string[] {
  return [
    'If you appeal to us within 28 days and we reject your appeal, you may still pay the amount that applied on the day you appealed (the reduced amount, if it applied then) for 14 days after our rejection.',
    `If you then appeal to ${appealsServiceName}, the reduced amount no longer applies: the full charge is due if that appeal fails.`,
  ];
}
