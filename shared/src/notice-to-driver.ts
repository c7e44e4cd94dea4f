import {
  describeChargeUnpaid,
  discountAndAppealStatements,
  formatUkDateTime,
  formatUkPeriod,
  type NoticeSection,
} from './notice-wording.ts';
import { APPEAL_PERIOD_DAYS } from './appeals.ts';
import { addDays, formatCalendarDate, ukDate, type NoticeServedBy } from './keeper-liability.ts';
import { APPEALS_SERVICE_NAMES, formatPence, type CarParkTerms, type OperatorTerms } from './operator-terms.ts';

/**
 * THE wording of the notice to driver: the one reviewed template (decision 0018). It carries
 * what the Protection of Freedoms Act 2012, Schedule 4, paragraph 7(2) requires, in its order:
 *   (a) the vehicle, the relevant land and the period of parking;
 *   (b) the requirement to pay, the charges, how the requirement arose (the signs) and the facts
 *       that made the charges payable;
 *   (c) that the charges are unpaid, and the amount unpaid as at a stated time;
 *   (d) the discount for prompt payment and how disputes are resolved;
 *   (e) the creditor, and how and to whom to pay;
 *   (f) when the notice is given;
 * and the BPA/IPC Single Code of Practice's items: the operator's and the appeals service's
 * contact details, that the charge arose on private land, how to appeal, and that a rejected
 * appeal can go to the independent appeals service. Change a word here and nowhere else.
 */
export type NoticeToDriverFacts = {
  /** 'PCN-000123', or the draft's reference while the notice has no number yet. */
  reference: string;
  vehicleRegistration: string;
  carPark: { name: string; address: string; postcode: string };
  /** The start of the period of parking: first seen (the observation's start, else when the officer began the notice). */
  firstSeenAt: string;
  /** When the notice was given (fixed to the vehicle or handed over): the end of the period of parking it covers. */
  servedAt: string;
  servedBy: Exclude<NoticeServedBy, 'DRIVE_OFF'>;
  contravention: string;
  /** The officer's description of what they saw; may be empty. */
  description: string;
  carParkTerms: CarParkTerms;
  operator: OperatorTerms;
  /** Where the motorist sees the charge and its photos: the product's /charge page. */
  lookupUrl: string;
};

export type NoticeDocument = { title: string; subtitle: string; reference: string; sections: NoticeSection[] };

const SERVICE_WORDS: Record<NoticeToDriverFacts['servedBy'], string> = {
  AFFIXED: 'by fixing it to the vehicle',
  HANDED: 'by handing it to the driver',
};

/** What stops a notice being printed: terms that were never set. Empty when it can be. */
export function noticeToDriverProblems(input: { carParkTerms: CarParkTerms | null; operator: OperatorTerms | null }): string[] {
  const problems: string[] = [];
  if (!input.operator) problems.push('The operator settings (the creditor and the appeals service) are not set.');
  if (!input.carParkTerms || input.carParkTerms.chargePence === null) problems.push('The car park has no charge set.');
  return problems;
}

export function noticeToDriver(facts: NoticeToDriverFacts): NoticeDocument {
  const { carParkTerms: terms, operator } = facts;
  const charge = formatPence(terms.chargePence ?? 0);
  const given = formatUkDateTime(facts.servedAt);
  const land = [facts.carPark.name, facts.carPark.address, facts.carPark.postcode].filter((part) => part.trim() !== '').join(', ');
  const appealsService = APPEALS_SERVICE_NAMES[operator.appealsService];
  return {
    title: 'Parking Charge Notice',
    subtitle: 'Notice to driver',
    reference: facts.reference,
    sections: [
      {
        lines: ['This parking charge was incurred on private land. It is not a penalty charge notice from a council or the police.'],
      },
      {
        heading: 'The vehicle and the parking',
        lines: [
          `Vehicle: ${facts.vehicleRegistration}`,
          `Land: ${land}`,
          `Period of parking: ${formatUkPeriod(facts.firstSeenAt, facts.servedAt)}`,
        ],
      },
      {
        heading: 'Why a parking charge is payable',
        lines: [
          `Signs at the entrance to this land and throughout it set the terms on which drivers may park here: "${terms.signageTerms.trim().replace(/\.$/, '') || 'see the signs on site'}". By parking here, the driver accepted those terms and the requirement to pay a parking charge of ${charge} if they were not kept.`,
          `The terms were not kept: ${facts.contravention}.${facts.description.trim() ? ` ${facts.description.trim()}` : ''}`,
        ],
      },
      {
        heading: 'The charge',
        lines: [describeChargeUnpaid(terms.chargePence ?? 0, given), discountLine(terms)],
      },
      {
        heading: 'How to pay',
        lines: [`Pay ${operator.creditorName}, the creditor, quoting the reference ${facts.reference}.`, operator.howToPay.trim()],
      },
      {
        heading: 'How to dispute this charge',
        lines: [
          `If you believe this charge should not have been issued, appeal to ${operator.creditorName} within ${APPEAL_PERIOD_DAYS} days of the date this notice was given (by ${formatCalendarDate(addDays(ukDate(facts.servedAt), APPEAL_PERIOD_DAYS))}), quoting the reference ${facts.reference} and saying why. Appeal online at ${operator.creditorWebsite}, by email to ${operator.creditorEmail} or by post to the address below. While your appeal is considered, the charge is put on hold.`,
          `If your appeal is rejected, you may appeal to ${appealsService}, the independent appeals service, which will tell you how. Its contact details: ${oneLine(operator.appealsServiceContact)}.`,
          ...discountAndAppealStatements(appealsService),
        ],
      },
      {
        heading: 'See the photos',
        lines: [
          `See this charge and its photos at ${facts.lookupUrl}, with the reference ${facts.reference} and the vehicle registration.`,
        ],
      },
      {
        heading: 'The creditor',
        lines: [
          operator.creditorName,
          oneLine(operator.creditorAddress),
          `Phone ${operator.creditorPhone} · Email ${operator.creditorEmail} · ${operator.creditorWebsite}`,
        ],
      },
      {
        heading: 'This notice',
        lines: [`This notice was given at ${given} ${SERVICE_WORDS[facts.servedBy]}.`],
      },
    ],
  };
}

function discountLine(terms: CarParkTerms): string {
  if (terms.reducedChargePence === null || terms.reducedWithinDays === null) return 'No discount is offered for prompt payment.';
  return `If paid within ${terms.reducedWithinDays} days of the date this notice was given, the charge is reduced to ${formatPence(terms.reducedChargePence)}.`;
}

function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
}
