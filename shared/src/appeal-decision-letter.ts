import type { AmountDue } from './amount-due.ts';
import { APPEAL_REASON_LABELS, APPEALS_CHARTER, type AppealOutcome, type AppealReason, type CharterCase } from './appeals.ts';
import { formatCalendarDate, type CalendarDate } from './keeper-liability.ts';
import { APPEALS_SERVICE_NAMES, formatPence, type OperatorTerms } from './operator-terms.ts';
import type { KeeperLetter } from './notice-to-keeper.ts';
import { describeAmountDue, discountAndAppealStatements, formatUkPeriod, type NoticeSection } from './notice-wording.ts';

/**
 * THE wording of the letter answering an appeal: the one reviewed template (decision 0019).
 *
 * A rejection answers, as the Single Code of Practice asks: the reasons, in the handler's words,
 * dealing with what was raised; the independent appeals service's name, how to reach it and by
 * when; the verification code where that service uses one (POPLA); and, when the appeal came
 * within the discount period, that the reduced amount stands for 14 more days. An appeal made
 * after the appeal period and not considered is declined as out of time: the letter says when the
 * period ended, that the charge stands and what is due (decision 0023).
 */
export type AppealDecisionFacts = {
  appealReference: string;
  chargeReference: string;
  vehicleRegistration: string;
  appellantName: string;
  receivedOn: CalendarDate;
  decidedOn: CalendarDate;
  reason: AppealReason;
  outcome: AppealOutcome;
  reasons: string;
  /** ACCEPTED_REDUCED: the amount now due. */
  reducedChargePence: number | null;
  /** ACCEPTED_REDUCED: the last day the reduced amount may be paid (decision 0024). */
  reducedPayableUntil: CalendarDate | null;
  /** The Appeals Charter case the decision followed, if any. */
  charterOutcome: CharterCase | null;
  /** The period of parking: first seen, to when the notice was given. */
  parkedFrom: string;
  parkedUntil: string;
  /** What the charge asks for on the day of the decision (amountDue): the letter states it, less what was paid. */
  amount: AmountDue;
  /** REJECTED within the discount period: the reduced amount stands until this day. */
  reducedHeldUntil: CalendarDate | null;
  verificationCode: string | null;
  appealsServiceUntil: CalendarDate | null;
  /** The last day to appeal in time: what a declined late appeal is told. */
  appealUntil: CalendarDate | null;
  operator: OperatorTerms;
  lookupUrl: string;
};

/**
 * POST /appeals/{id}/decision-preview: the letter a decision would send, drawn by this template
 * from the decision's own inputs before anything is recorded.
 */
export type AppealDecisionPreview = {
  outcome: AppealOutcome;
  /** Null when the notice's operator terms were never set: the decision is recorded without a letter. */
  letter: KeeperLetter | null;
  /** Where the letter is emailed; null when there is no address (download it and post it). */
  emailTo: string | null;
};

/** Stands for the verification code in a preview: the code is made only when the decision is recorded. */
export const VERIFICATION_CODE_PREVIEW = '(a 10-digit code, made when the decision is recorded)';

export function appealDecisionLetter(facts: AppealDecisionFacts): KeeperLetter {
  const { operator } = facts;
  const service = APPEALS_SERVICE_NAMES[operator.appealsService];
  const opening: NoticeSection = {
    lines: [
      `Dear ${facts.appellantName},`,
      `Thank you for your appeal ${facts.appealReference}, received on ${formatCalendarDate(facts.receivedOn)}, against parking charge ${facts.chargeReference} for the vehicle ${facts.vehicleRegistration}, parked ${formatUkPeriod(facts.parkedFrom, facts.parkedUntil)}. Your reason for appealing: “${APPEAL_REASON_LABELS[facts.reason]}”.`,
    ],
  };
  const sections: NoticeSection[] = [opening];
  const reasons = facts.reasons.trim();
  // The reduced rate held after a rejection, while the amount computed for today still offers it.
  const reducedHeld =
    facts.reducedHeldUntil && facts.amount.reduced
      ? { amountPence: facts.amount.reduced.amountPence, until: facts.reducedHeldUntil }
      : null;

  if (facts.outcome === 'ACCEPTED') {
    sections.push({
      heading: 'Our decision: your appeal is accepted',
      lines: [
        `We have cancelled parking charge ${facts.chargeReference}. You do not need to do anything more.`,
        ...(reasons ? [reasons] : []),
      ],
    });
  } else if (facts.outcome === 'ACCEPTED_REDUCED') {
    const payableUntil = facts.reducedPayableUntil ? formatCalendarDate(facts.reducedPayableUntil) : null;
    sections.push(
      {
        heading: 'Our decision: your appeal is accepted in part',
        lines: [
          ...(facts.charterOutcome
            ? [
                `We have applied the Appeals Charter of the parking sector's Single Code of Practice: ${APPEALS_CHARTER[facts.charterOutcome].label.replace(/^./, (first) => first.toLowerCase())}.`,
              ]
            : []),
          ...(reasons ? [reasons] : []),
          payableUntil
            ? `We have reduced the parking charge to ${formatPence(facts.reducedChargePence ?? 0)} if it is paid by ${payableUntil}. After that day the reduction no longer applies and the full parking charge is due. Please pay what remains of it, quoting the reference ${facts.chargeReference}.`
            : `We have reduced the parking charge to ${formatPence(facts.reducedChargePence ?? 0)}. Please pay what remains of it, quoting the reference ${facts.chargeReference}.`,
          describeAmountDue(facts.amount),
          operator.howToPay.trim(),
        ],
      },
      // The reduced amount is still a charge: the motorist keeps the way to the independent service.
      independentAppealSection(facts, service, [
        `If you appeal to ${service} instead of paying, the reduced amount no longer applies: it decides whether the full parking charge is owed.`,
      ]),
    );
  } else if (facts.outcome === 'DECLINED_LATE') {
    sections.push(
      {
        heading: 'Our decision: your appeal was made out of time',
        lines: [
          facts.appealUntil
            ? `The time to appeal this charge ended on ${formatCalendarDate(facts.appealUntil)}: 28 days from the notice you were given. Your appeal came after it, and we have decided not to consider it.`
            : 'Your appeal came after the time to appeal this charge had ended, and we have decided not to consider it.',
          ...(reasons ? [reasons] : []),
          `Parking charge ${facts.chargeReference} stands.`,
        ],
      },
      { heading: 'What is due', lines: [describeAmountDue(facts.amount), operator.howToPay.trim()] },
    );
  } else {
    sections.push(
      {
        heading: 'Our decision: your appeal is rejected',
        lines: ['We have considered what you told us and the evidence. Our reasons:', reasons],
      },
      {
        heading: 'What is due',
        lines: [
          ...(reducedHeld
            ? [
                `Because you appealed within the discount period, you may still pay the reduced amount of ${formatPence(reducedHeld.amountPence)} until ${formatCalendarDate(reducedHeld.until)}. After that the full amount is due.`,
              ]
            : []),
          describeAmountDue(facts.amount),
          operator.howToPay.trim(),
        ],
      },
      independentAppealSection(
        facts,
        service,
        // The Single Code 8.1.2(d): the discount does not follow the motorist to the service.
        reducedHeld ? [discountAndAppealStatements(service)[1]!] : [],
      ),
    );
  }
  sections.push(
    {
      heading: 'See the charge',
      lines: [
        `The charge, its photos and this decision are at ${facts.lookupUrl}: enter the reference ${facts.chargeReference} and the registration ${facts.vehicleRegistration}.`,
      ],
    },
    {
      lines: [`${operator.creditorName}. Phone ${operator.creditorPhone}. Email ${operator.creditorEmail}. ${operator.creditorWebsite}`],
    },
  );
  return {
    title: 'Decision on your appeal',
    subtitle: `Appeal ${facts.appealReference} · Parking charge ${facts.chargeReference}`,
    reference: facts.chargeReference,
    sentOn: formatCalendarDate(facts.decidedOn),
    sections,
  };
}

/** The way to the independent appeals service: by when, with which code or references, and how to reach it. */
function independentAppealSection(facts: AppealDecisionFacts, service: string, after: string[]): NoticeSection {
  const until = facts.appealsServiceUntil ? formatCalendarDate(facts.appealsServiceUntil) : '';
  return {
    heading: 'Your right to an independent appeal',
    lines: [
      `If you disagree with our decision, you may appeal to ${service}, the independent appeals service, by ${until}.`,
      ...(facts.verificationCode
        ? [
            `You will need this verification code: ${facts.verificationCode}. Give it with the reference ${facts.chargeReference} when you appeal.`,
          ]
        : [`Quote the reference ${facts.chargeReference} and the appeal reference ${facts.appealReference} when you appeal.`]),
      `How to reach it: ${facts.operator.appealsServiceContact
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join(', ')}.`,
      'If you appeal to it, you do not need to pay while that appeal is considered.',
      ...after,
    ],
  };
}
