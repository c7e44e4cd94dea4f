import type { AmountDue } from './amount-due.ts';
import { APPEAL_STATUS_LABELS, type AppealStatus } from './appeals.ts';
import { formatCalendarDate, ukDate, type CalendarDate } from './keeper-liability.ts';
import type { KeeperLetter } from './notice-to-keeper.ts';
import { formatUkPeriod, type NoticeSection } from './notice-wording.ts';
import { APPEALS_SERVICE_NAMES, formatPence, type OperatorTerms } from './operator-terms.ts';

/**
 * THE wording of the two letters that chase a charge left unpaid after the notice to keeper
 * (decision 0039): the reminder, and the letter before claim under the Pre-Action Protocol for
 * Debt Claims. One template each, as for the notice to keeper; the API fills the facts and
 * renders them on the operator's paper.
 *
 * The letter before claim follows the Protocol's paragraph 3.1: (a) the amount of the debt;
 * (b) whether interest or other charges are continuing; (c)/(d) the agreement the debt arises
 * from (here the contract the signs offered, made by parking, with keeper liability under
 * Schedule 4); (e) that it has not been assigned; (f) instalments (none are being paid); (g) how
 * to pay and how to discuss paying; (h) where to send the Reply Form; with a statement of account,
 * and enclosed the Information Sheet and the Reply Form (the Protocol's Annex 1) as pages of the
 * same letter, and where to find a financial statement (the Standard Financial Statement). The
 * debtor has 30 days from the letter to reply (paragraph 4).
 */
export type CollectionLetterFacts = {
  reference: string;
  vehicleRegistration: string;
  carPark: { name: string; address: string; postcode: string };
  parkedFrom: string;
  parkedUntil: string;
  contravention: string;
  /** The terms on the signs, as the car park's terms recorded them when the notice was issued. */
  signageTerms: string;
  operator: OperatorTerms;
  keeperNoticeSentOn: CalendarDate;
  keeperNoticeGivenOn: CalendarDate;
  /** The day this letter is posted (its date) and the day it is presumed given. */
  sentOn: CalendarDate;
  givenOn: CalendarDate;
  /** What is owed as at 23:59 on the day before sentOn (amountDue). */
  amount: AmountDue;
  /** Where the motorist sees the charge and pays: the product's /charge page. */
  lookupUrl: string;
  /** The debt recovery charge this letter warns of (warnedDebtRecoveryFeePence); 0 warns of none. */
  debtRecoveryFeePence: number;
  /** The appeal, if one was made, and the last day one could be made in time. */
  appealUntil: CalendarDate | null;
  appeal: { status: AppealStatus; decidedAt: string | null; withdrawnAt: string | null; appealsServiceUntil: CalendarDate | null } | null;
};

/** The reminder's own facts: the day from which a letter before claim may follow. */
export type ReminderFacts = CollectionLetterFacts & { letterBeforeClaimFrom: CalendarDate };

/** The letter before claim's own facts: the reminder it follows, and the last day to reply. */
export type LetterBeforeClaimFacts = CollectionLetterFacts & { reminderSentOn: CalendarDate | null; replyBy: CalendarDate };

/** Where free, independent debt advice is, as the Information Sheet points to it. */
export const DEBT_ADVICE_LINES = [
  'National Debtline: 0808 808 4000, www.nationaldebtline.org',
  'StepChange Debt Charity: 0800 138 1111, www.stepchange.org',
  'Citizens Advice: www.citizensadvice.org.uk',
  'MoneyHelper: 0800 138 7777, www.moneyhelper.org.uk',
] as const;

/** The Standard Financial Statement, the financial statement the Protocol points a debtor to (paragraph 3.1). */
export const STANDARD_FINANCIAL_STATEMENT = 'the Standard Financial Statement (www.sfs.moneyadviceservice.org.uk)';

function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
}

function landOf(facts: CollectionLetterFacts): string {
  return [facts.carPark.name, facts.carPark.address, facts.carPark.postcode].filter((part) => part.trim() !== '').join(', ');
}

function owed(facts: CollectionLetterFacts): string {
  return formatPence(facts.amount.amountDuePence);
}

/** "If unpaid, a debt recovery charge of £X may be added", or nothing where no charge is warned of. */
export function debtRecoveryWarning(feePence: number): string | null {
  return feePence > 0
    ? `If unpaid, a debt recovery charge of ${formatPence(feePence)} may be added. It is added only if the charge is passed to a debt recovery agency, and never more than the private parking sector's limit.`
    : null;
}

/** Where an appeal stands, as the reminder tells it. */
function appealPosition(facts: CollectionLetterFacts): string[] {
  const service = APPEALS_SERVICE_NAMES[facts.operator.appealsService];
  const appeal = facts.appeal;
  if (!appeal) {
    return [
      facts.appealUntil
        ? `No appeal was made. The time to appeal to us ended on ${formatCalendarDate(facts.appealUntil)}.`
        : 'No appeal was made.',
    ];
  }
  if (appeal.status === 'WITHDRAWN') {
    return [`You withdrew your appeal${appeal.withdrawnAt ? ` on ${formatCalendarDate(ukDate(appeal.withdrawnAt))}` : ''}.`];
  }
  const decided = appeal.decidedAt ? ` on ${formatCalendarDate(appeal.decidedAt.slice(0, 10))}` : '';
  const lines = [`Your appeal was decided${decided}: ${APPEAL_STATUS_LABELS[appeal.status].toLowerCase()}.`];
  if (appeal.appealsServiceUntil && appeal.appealsServiceUntil >= facts.sentOn) {
    lines.push(
      `You may still appeal to ${service}, the independent appeals service, until ${formatCalendarDate(appeal.appealsServiceUntil)}: ${oneLine(facts.operator.appealsServiceContact)}.`,
    );
  }
  return lines;
}

function payLines(facts: CollectionLetterFacts): string[] {
  const { operator } = facts;
  return [
    `Pay online at ${facts.lookupUrl}, entering the reference ${facts.reference} and the registration ${facts.vehicleRegistration}, where you can also see the photographs.`,
    operator.howToPay.trim(),
    `${operator.creditorName}, ${oneLine(operator.creditorAddress)}. Phone ${operator.creditorPhone}. Email ${operator.creditorEmail}. ${operator.creditorWebsite}`,
  ];
}

function chargeSection(facts: CollectionLetterFacts): NoticeSection {
  return {
    heading: 'The parking charge',
    lines: [
      `Vehicle: ${facts.vehicleRegistration}`,
      `Land: ${landOf(facts)}`,
      `Period of parking: ${formatUkPeriod(facts.parkedFrom, facts.parkedUntil)}`,
      `Why: the terms were not kept: ${facts.contravention}.`,
      `A notice to keeper was sent to you on ${formatCalendarDate(facts.keeperNoticeSentOn)} and was presumed given on ${formatCalendarDate(facts.keeperNoticeGivenOn)}.`,
    ],
  };
}

function opening(): NoticeSection[] {
  return [
    {
      lines: [
        'This parking charge was incurred on private land. It is not a penalty charge notice from a council or the police.',
        `We wrote to you as the registered keeper of the vehicle below. The parking charge has not been paid, and the driver has not been named to us.`,
      ],
    },
  ];
}

/** The reminder: what is owed, how to pay, where to see the charge, and where an appeal stands. */
export function reminderLetter(facts: ReminderFacts): KeeperLetter {
  const warning = debtRecoveryWarning(facts.debtRecoveryFeePence);
  return {
    title: 'Reminder',
    subtitle: `Unpaid parking charge ${facts.reference}`,
    reference: facts.reference,
    sentOn: formatCalendarDate(facts.sentOn),
    sections: [
      ...opening(),
      chargeSection(facts),
      {
        heading: 'What you owe',
        lines: [
          `As at 23:59 on ${formatCalendarDate(facts.amount.asOn)}, ${owed(facts)} remains unpaid${
            facts.amount.paidPence > 0 ? ` (${formatPence(facts.amount.paidPence)} has been paid)` : ''
          }.`,
          `Please pay ${owed(facts)} now. If it is still unpaid on ${formatCalendarDate(facts.letterBeforeClaimFrom)}, we may send you a letter before claim, the last step before we may ask the county court to decide.`,
          ...(warning ? [warning] : []),
        ],
      },
      { heading: 'How to pay', lines: payLines(facts) },
      { heading: 'Appeals', lines: appealPosition(facts) },
      {
        heading: 'This letter',
        lines: [
          `This reminder was sent by post on ${formatCalendarDate(facts.sentOn)} and is presumed given on ${formatCalendarDate(facts.givenOn)}.`,
        ],
      },
    ],
  };
}

/** The letter before claim, with the Information Sheet and the Reply Form enclosed as its last pages. */
export function letterBeforeClaim(facts: LetterBeforeClaimFacts): KeeperLetter {
  const { operator } = facts;
  const warning = debtRecoveryWarning(facts.debtRecoveryFeePence);
  const replyBy = formatCalendarDate(facts.replyBy);
  const returnTo = `${operator.creditorName}, ${oneLine(operator.creditorAddress)}, or by email to ${operator.creditorEmail}`;
  return {
    title: 'Letter before claim',
    subtitle: 'Pre-Action Protocol for Debt Claims',
    reference: facts.reference,
    sentOn: formatCalendarDate(facts.sentOn),
    sections: [
      ...opening(),
      {
        lines: [
          `${operator.creditorName} is considering starting a claim in the county court to recover this debt. Before doing so, we are writing to you as the Pre-Action Protocol for Debt Claims requires.`,
        ],
      },
      chargeSection(facts),
      {
        heading: 'The debt',
        lines: [
          `The amount of the debt is ${owed(facts)}, as at 23:59 on ${formatCalendarDate(facts.amount.asOn)}.`,
          `No interest is being claimed, and no other charges are being added${warning ? ', except as set out below' : ''}.`,
          ...(warning ? [warning] : []),
        ],
      },
      {
        heading: 'Statement of account',
        lines: [
          `Parking charge: ${formatPence(facts.amount.chargePence ?? 0)}${facts.amount.reducedByAppeal ? ' (as reduced on appeal)' : ''}`,
          `Paid: ${formatPence(facts.amount.paidPence)}`,
          `Outstanding: ${owed(facts)}`,
        ],
      },
      {
        heading: 'How the debt arises',
        lines: [
          `The signs at the land offered parking on these terms: "${facts.signageTerms.trim().replace(/\.$/, '') || 'see the signs on site'}". By parking the vehicle there during the period above, the driver accepted them, including the parking charge if they were not kept. The agreement was made between the driver and ${operator.creditorName} at the land, when the vehicle was parked; it was not made in writing or spoken.`,
          `The driver was not named to us after the notice to keeper, so under Schedule 4 to the Protection of Freedoms Act 2012 you, the registered keeper, are liable for the unpaid charge.`,
          'The debt has not been assigned: the creditor is the one the signs named.',
          ...(facts.reminderSentOn ? [`We sent you a reminder on ${formatCalendarDate(facts.reminderSentOn)}.`] : []),
          'No payments by instalments have been offered or are being made.',
        ],
      },
      {
        heading: 'How to pay, or to talk to us about paying',
        lines: [
          ...payLines(facts),
          `If you cannot pay the whole amount at once, or want to discuss how to pay, contact us on ${operator.creditorPhone} or at ${operator.creditorEmail}, quoting the reference ${facts.reference}.`,
        ],
      },
      {
        heading: 'What you should do now',
        lines: [
          `Please pay the debt, or fill in the enclosed Reply Form and send it to ${returnTo}, by ${replyBy}: 30 days from the day this letter is presumed given, so never less than the 30 days from its date the Protocol allows.`,
          'Enclosed with this letter are the Information Sheet and the Reply Form of the Pre-Action Protocol for Debt Claims (its Annex 1).',
          `If you are having trouble paying, fill in a financial statement such as ${STANDARD_FINANCIAL_STATEMENT}; free debt advisers can help you with it, and we will send you one if you ask.`,
          'If you do not reply by then, we may start a claim in the county court without writing again. Court costs and interest could then be added to what you owe.',
        ],
      },
      {
        heading: 'This letter',
        lines: [
          `This letter was sent by post on ${formatCalendarDate(facts.sentOn)} and is presumed given on ${formatCalendarDate(facts.givenOn)}.`,
        ],
      },
    ],
    annexes: [informationSheet(facts, returnTo, replyBy), replyForm(facts, returnTo, replyBy)],
  };
}

/** The Information Sheet (the Protocol's Annex 1), in our words: what the letter means and what to do. */
function informationSheet(facts: LetterBeforeClaimFacts, returnTo: string, replyBy: string): { title: string; sections: NoticeSection[] } {
  return {
    title: 'Information Sheet',
    sections: [
      {
        lines: [
          `Pre-Action Protocol for Debt Claims, Annex 1. Reference ${facts.reference}.`,
          `You have been sent a letter before claim because ${facts.operator.creditorName} says you owe it money. It is considering asking the county court to order you to pay.`,
        ],
      },
      {
        heading: 'What you should do',
        lines: [
          `Read the letter carefully, then fill in the Reply Form and send it to ${returnTo} by ${replyBy}, the end of your 30 days to reply. Keep a copy.`,
          'If you agree you owe the debt, you can pay it, or say in the Reply Form how you propose to pay. If you need time to pay, fill in a financial statement so we can see what you can afford.',
          'If you do not know whether you owe the debt, or think you do not, say so in the Reply Form, and ask for any documents you need.',
          'If you ask for documents, or tell us you are getting debt advice, we will wait a reasonable time before starting a claim.',
          'If you do not reply, we may start a court claim. If the court decides against you, a County Court Judgment may be entered, which can make it harder for you to get credit, and court costs and interest may be added.',
        ],
      },
      {
        heading: 'Free, independent debt advice',
        lines: [
          'You should get advice as soon as possible. These organisations give it free of charge:',
          ...DEBT_ADVICE_LINES,
          `A financial statement, ${STANDARD_FINANCIAL_STATEMENT}, helps an adviser, and us, see what you can afford.`,
        ],
      },
    ],
  };
}

/** The Reply Form (the Protocol's Annex 1): the four parts a debtor fills in, with boxes to tick. */
function replyForm(facts: LetterBeforeClaimFacts, returnTo: string, replyBy: string): { title: string; sections: NoticeSection[] } {
  const box = '[   ]';
  return {
    title: 'Reply Form',
    sections: [
      {
        lines: [
          `Pre-Action Protocol for Debt Claims, Annex 1. Reference ${facts.reference}. Amount claimed: ${owed(facts)}.`,
          `Send this form to ${returnTo} by ${replyBy}. Keep a copy.`,
          'Your name: ..................................................................',
          'Your address: ..............................................................',
          '...................................................................................... Postcode: .................',
        ],
      },
      {
        heading: 'Part 1: the debt (tick one)',
        lines: [
          `${box} A. I agree I owe the debt.`,
          `${box} B. I agree I owe part of the debt: £.................... I do not owe the rest because: ..................................`,
          `${box} C. I do not know whether I owe the debt. I need the documents or information below in Part 3.`,
          `${box} D. I dispute the debt because: ..........................................................................`,
        ],
      },
      {
        heading: 'Part 2: paying (if you agree you owe all or part)',
        lines: [
          `${box} I enclose payment of £....................`,
          `${box} I will pay by instalments of £.................... each ${box} week ${box} month, starting on ....................`,
          `${box} I have filled in a financial statement and enclose it.`,
        ],
      },
      {
        heading: 'Part 3: documents and information',
        lines: [
          `${box} I would like copies of: ${box} the photographs ${box} the signs' terms ${box} the notice to keeper ${box} a statement of account`,
          'Other documents or information I need: ..................................................................',
        ],
      },
      {
        heading: 'Part 4: debt advice',
        lines: [
          `${box} I am getting debt advice from: ..................................................................`,
          `${box} I would like time to get debt advice. I expect to have it by: ....................`,
          'Anything else you want us to know: ........................................................................',
          'Signed: ........................................   Date: ....................',
        ],
      },
    ],
  };
}
