import type { AmountDue } from './amount-due.ts';
import { APPEAL_PERIOD_DAYS } from './appeals.ts';
import { addDays, formatCalendarDate, ukDate, type CalendarDate } from './keeper-liability.ts';
import {
  describeChargeUnpaid,
  describeUnpaidAsAt,
  discountAndAppealStatements,
  formatUkDateTime,
  formatUkPeriod,
  type NoticeSection,
} from './notice-wording.ts';
import { APPEALS_SERVICE_NAMES, formatPence, type CarParkTerms, type OperatorTerms } from './operator-terms.ts';

/**
 * THE wording of the notice to keeper: the one reviewed template (decision 0018), by route.
 *
 * Paragraph 8 (after a notice to driver), 8(2): (a) the vehicle, the land and the period of
 * parking; (b) the driver must pay and has not paid in full; (c) a notice to driver was given,
 * repeating its 7(2)(b), (c) and (f); (d) the creditor does not know both the driver's name and a
 * current address for service, and the invitation to pay or to name the driver and pass the
 * notice on; (e) the warning of keeper liability after 28 days; (f) the discount and disputes;
 * (g) the creditor, and how and to whom to pay or notify; (h) the date it is sent.
 *
 * Paragraph 9 (no notice to driver), 9(2): (a) as above; (b) the driver must pay and has not
 * paid in full; (c) the charges due at the end of the period of parking, how they arose (the
 * signs) and why; (d) the amount unpaid as at a time no later than the end of the day before it
 * is sent; (e) as 8(2)(d); (f) the warning; (g) the discount and disputes; (h) the creditor and
 * how to pay; (i) the date it is sent.
 *
 * Both carry the Single Code's items: private land, the operator's and the appeals service's
 * contact details, how to appeal and that a rejected appeal can go to the independent appeals
 * service; and the reference and registration a motorist needs to see the evidence. A notice to
 * driver printed before the notice was sent carried its draft reference (decision 0018): the
 * letter names it, so the keeper can tell the ticket and the letter are one charge.
 */
export type NoticeToKeeperFacts = {
  route: 'PARAGRAPH_8' | 'PARAGRAPH_9';
  reference: string;
  vehicleRegistration: string;
  /** The vehicle as the DVLA holds it, e.g. 'Blue Ford Focus'; may be empty. */
  vehicleDescription: string;
  carPark: { name: string; address: string; postcode: string };
  /** The start of the period of parking: first seen. */
  firstSeenAt: string;
  /** The end of the period of parking: when the notice to driver was given, or when the driver left. */
  parkingEndedAt: string;
  /** Paragraph 8: how and when the notice to driver was given. */
  noticeToDriver: { servedAt: string; servedBy: 'AFFIXED' | 'HANDED' } | null;
  /** The draft reference ('D-1A2B3C4D') the notice to driver may have been printed under; null when it had none. */
  draftReference: string | null;
  contravention: string;
  description: string;
  carParkTerms: CarParkTerms;
  operator: OperatorTerms;
  /** The day the letter is posted (the date it is sent). */
  sentOn: CalendarDate;
  /** The second working day after sentOn: when the notice is presumed given. */
  givenOn: CalendarDate;
  /** Where the motorist sees the charge and its photos: the product's /charge page. */
  lookupUrl: string;
  /**
   * What the charge asks for as at 23:59 on the day before sentOn (amountDue): payments made by
   * then, an appeal's reduced outcome or hold. Paragraphs 8(2)(d) and 9(2)(d).
   */
  amount: AmountDue;
  /**
   * The keeper is a vehicle-hire firm (decision 0027): the letter also asks for the hirer, with the
   * three documents of paragraph 13(2) that pass liability to the hirer when given within 28 days.
   */
  keeperIsHireFirm?: boolean;
};

const SERVICE_WORDS = { AFFIXED: 'by fixing it to the vehicle', HANDED: 'by handing it to the driver' } as const;

function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
}

export type KeeperLetter = {
  title: string;
  subtitle: string;
  reference: string;
  /** The ticket's draft reference, printed beside the reference, when the notice to driver may show it instead. */
  ticketReference?: string;
  sentOn: string;
  sections: NoticeSection[];
  /** Pages enclosed with the letter, each starting a page of its own (the letter before claim's Information Sheet and Reply Form). */
  annexes?: Array<{ title: string; sections: NoticeSection[] }>;
};

export function noticeToKeeper(facts: NoticeToKeeperFacts): KeeperLetter {
  const { carParkTerms: terms, operator } = facts;
  const charge = formatPence(terms.chargePence ?? 0);
  // "The amount of those parking charges that remain unpaid" (8(2)(d), 9(2)(d)), used wherever the
  // letter names what the keeper is asked to pay; the charge itself stays as the signs set it.
  const unpaid = formatPence(facts.amount.unpaidPence);
  const unpaidLines = [
    describeUnpaidAsAt(facts.amount),
    ...(facts.amount.reducedByAppeal
      ? [`Following an appeal, the parking charge was reduced to ${formatPence(facts.amount.chargePence ?? 0)}.`]
      : []),
  ];
  const land = [facts.carPark.name, facts.carPark.address, facts.carPark.postcode].filter((part) => part.trim() !== '').join(', ');
  const vehicle = facts.vehicleDescription.trim()
    ? `${facts.vehicleRegistration} (${facts.vehicleDescription.trim()})`
    : facts.vehicleRegistration;
  const sent = formatCalendarDate(facts.sentOn);
  const given = formatCalendarDate(facts.givenOn);
  const why = `The terms were not kept: ${facts.contravention}.${facts.description.trim() ? ` ${facts.description.trim()}` : ''}`;
  const signs = `Signs at the entrance to the land and throughout it set the terms on which drivers may park there: "${terms.signageTerms.trim().replace(/\.$/, '') || 'see the signs on site'}". By parking there, the driver accepted those terms and the requirement to pay a parking charge of ${charge} if they were not kept.`;
  const paragraph = facts.route === 'PARAGRAPH_8' ? '8' : '9';
  // Only a notice to driver can have been printed under a draft reference.
  const ticketReference = facts.route === 'PARAGRAPH_8' && facts.noticeToDriver ? facts.draftReference : null;

  const chargeSections: NoticeSection[] =
    facts.route === 'PARAGRAPH_8' && facts.noticeToDriver
      ? [
          {
            heading: 'The notice to driver',
            lines: [
              `A notice to driver for this period of parking was given at ${formatUkDateTime(facts.noticeToDriver.servedAt)} ${SERVICE_WORDS[facts.noticeToDriver.servedBy]}. It said:`,
              signs,
              why,
              describeChargeUnpaid(terms.chargePence ?? 0, formatUkDateTime(facts.noticeToDriver.servedAt)),
              ...unpaidLines,
            ],
          },
        ]
      : [
          {
            heading: 'The parking charge',
            lines: [
              `The parking charge due from the driver as at the end of the period of parking was ${charge}.`,
              signs,
              why,
              ...unpaidLines,
            ],
          },
        ];

  return {
    title: 'Notice to Keeper',
    subtitle: `Protection of Freedoms Act 2012, Schedule 4, paragraph ${paragraph}`,
    reference: facts.reference,
    ...(ticketReference ? { ticketReference } : {}),
    sentOn: sent,
    sections: [
      {
        lines: [
          'This parking charge was incurred on private land. It is not a penalty charge notice from a council or the police.',
          'We are writing to you as the registered keeper of the vehicle below, whose details the DVLA gave us.',
        ],
      },
      {
        heading: 'The vehicle and the parking',
        lines: [`Vehicle: ${vehicle}`, `Land: ${land}`, `Period of parking: ${formatUkPeriod(facts.firstSeenAt, facts.parkingEndedAt)}`],
      },
      {
        lines: [
          `The driver is required to pay a parking charge in respect of the period of parking above, and the parking charge has not been paid in full.`,
        ],
      },
      ...chargeSections,
      {
        heading: 'What we ask of you',
        lines: [
          `${operator.creditorName}, the creditor, does not know both the name of the driver and a current address for service for the driver.`,
          `We invite you to pay the unpaid parking charge of ${unpaid}, or, if you were not the driver of the vehicle, to tell us the name of the driver and a current address for service for the driver, and to pass this notice on to the driver.`,
        ],
      },
      ...(facts.keeperIsHireFirm ? [hireFirmSection(facts)] : []),
      {
        heading: 'Warning',
        lines: [
          // The Act words the two warnings differently: paragraph 8(2)(f) "at the end of the period",
          // paragraph 9(2)(f) "after the period". Each notice uses its own paragraph's words.
          `If, ${facts.route === 'PARAGRAPH_8' ? 'at the end of' : 'after'} the period of 28 days beginning with the day after that on which this notice is given, the amount of the unpaid parking charge (${unpaid}) has not been paid in full, and the creditor does not know both the name of the driver and a current address for service for the driver, the creditor will (if all the applicable conditions under Schedule 4 to the Protection of Freedoms Act 2012 are met) have the right to recover from you, the keeper, so much of that amount as remains unpaid.`,
          `Sent by post on ${sent}, this notice is presumed to be given on ${given}, the second working day after it was sent.`,
        ],
      },
      {
        heading: 'Discount, and how to dispute this charge',
        lines: [
          discountLine(facts),
          `To dispute this charge, appeal to ${operator.creditorName} within ${APPEAL_PERIOD_DAYS} days of the day this notice is given (by ${formatCalendarDate(addDays(facts.givenOn, APPEAL_PERIOD_DAYS))}), quoting the reference ${facts.reference} and saying why: online at ${operator.creditorWebsite}, by email to ${operator.creditorEmail} or by post to the address below. While your appeal is considered, the charge is put on hold.`,
          `If your appeal is rejected, you may appeal to ${APPEALS_SERVICE_NAMES[operator.appealsService]}, the independent appeals service. Its contact details: ${oneLine(operator.appealsServiceContact)}.`,
          ...discountAndAppealStatements(APPEALS_SERVICE_NAMES[operator.appealsService]),
        ],
      },
      {
        heading: 'How to pay, or to tell us who was driving',
        lines: [
          `Pay ${operator.creditorName}, the creditor, or write to it with the driver's name and address, quoting the reference ${facts.reference}.`,
          operator.howToPay.trim(),
          `${operator.creditorName}, ${oneLine(operator.creditorAddress)}. Phone ${operator.creditorPhone}. Email ${operator.creditorEmail}. ${operator.creditorWebsite}`,
        ],
      },
      {
        heading: 'See the evidence',
        lines: [
          `To see the photographs of the vehicle, go to ${facts.lookupUrl} and enter the reference ${facts.reference} and the registration ${facts.vehicleRegistration}.`,
          ...(ticketReference
            ? [
                `The notice to driver may show the ticket reference ${ticketReference} in place of ${facts.reference}: both refer to this charge, and either finds it there.`,
              ]
            : []),
        ],
      },
      {
        heading: 'This notice',
        lines: [`This notice was sent by post on ${sent}.`],
      },
    ],
  };
}

/**
 * The prompt-payment discount as it stands when the letter goes. After a notice to driver the
 * discount ran from the day it was given, and may have ended; without one it runs from the day
 * this notice is given.
 */
function discountLine(facts: NoticeToKeeperFacts): string {
  const { reducedChargePence, reducedWithinDays } = facts.carParkTerms;
  if (reducedChargePence === null || reducedWithinDays === null) return 'No discount is offered for prompt payment.';
  if (facts.amount.reducedByAppeal) return 'No further discount is offered: the charge was reduced on appeal.';
  const paid = facts.amount.paidPence;
  // A part payment counts towards the reduced amount too: the letter says what would then settle it.
  const reduced =
    paid > 0
      ? `${formatPence(reducedChargePence)} (${formatPence(Math.max(0, reducedChargePence - paid))} after the ${formatPence(paid)} already paid)`
      : formatPence(reducedChargePence);
  if (facts.route === 'PARAGRAPH_8' && facts.noticeToDriver) {
    // The discount's last day as the amount due worked it out (a rejected appeal may have held it
    // longer); once it has passed, the days from the notice to driver.
    const lastDay = facts.amount.reduced?.until ?? addDays(ukDate(facts.noticeToDriver.servedAt), reducedWithinDays);
    if (!facts.amount.reduced || lastDay < facts.sentOn) {
      return `No discount is now offered: the reduced amount of ${formatPence(reducedChargePence)} applied if paid by ${formatCalendarDate(lastDay)}, within ${reducedWithinDays} days of the notice to driver.`;
    }
    return `The charge is reduced to ${reduced} if paid by ${formatCalendarDate(lastDay)}, within ${reducedWithinDays} days of the notice to driver.`;
  }
  return `The charge is reduced to ${reduced} if paid within ${reducedWithinDays} days of the day this notice is given (by ${formatCalendarDate(addDays(facts.givenOn, reducedWithinDays))}).`;
}

/**
 * Paragraph 13: a vehicle-hire firm is not liable as keeper if, within 28 days beginning with the
 * day after the notice to keeper is given, it gives the creditor (a) its signed statement that the
 * vehicle was hired to a named person under a hire agreement, (b) a copy of the hire agreement and
 * (c) a copy of the hirer's signed statement of liability, which acknowledges responsibility for
 * parking charges and gives an address for documents (13(3)). The letter asks for them.
 */
function hireFirmSection(facts: NoticeToKeeperFacts): NoticeSection {
  return {
    heading: 'If the vehicle was hired out',
    lines: [
      `If, at the time of parking, the vehicle was hired to someone under a hire agreement with your firm, please tell us who the hirer was. Under paragraph 13 of Schedule 4 to the Protection of Freedoms Act 2012, you will not be liable as the keeper if, within 28 days beginning with the day after that on which this notice is given (by ${formatCalendarDate(addDays(facts.givenOn, 28))}), you give us, quoting the reference ${facts.reference}:`,
      '(a) a statement signed by or on behalf of your firm that at that time the vehicle was hired to a named person under a hire agreement;',
      '(b) a copy of the hire agreement; and',
      '(c) a copy of a statement of liability signed by the hirer under that hire agreement, in which the hirer acknowledges responsibility for any parking charges incurred while the vehicle is hired to them and gives an address at which documents may be given to them.',
    ],
  };
}
