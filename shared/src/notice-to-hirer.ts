import {
  chargeLines,
  creditorContactLine,
  disputeSection,
  discountFromThisLetter,
  evidenceSection,
  parkingSection,
  type LetterFacts,
} from './driver-and-hirer-letters.ts';
import { formatCalendarDate, type CalendarDate } from './keeper-liability.ts';
import type { KeeperLetter } from './notice-to-keeper.ts';
import { formatPence } from './operator-terms.ts';

/**
 * THE wording of the notice to hirer (Protection of Freedoms Act 2012, Schedule 4, paragraph 14):
 * the one template. A vehicle-hire firm, given a notice to keeper, named the hirer and gave the
 * creditor the documents of paragraph 13(2): (a) its signed statement that at the material time
 * the vehicle was hired to the named person under a hire agreement, (b) a copy of the hire
 * agreement, (c) a copy of the hirer's signed statement of liability, which acknowledges
 * responsibility for parking charges and gives an address for documents (13(3)).
 *
 * Paragraph 14: the notice to hirer is given within 21 days beginning with the day after those
 * documents were given, with a copy of them and of the notice to keeper (14(2)(a)), and it must
 * (a) inform the hirer that by virtue of paragraph 14 the hirer is liable to pay the unpaid
 * parking charges, and (b) warn the hirer that if, after 21 days (not the keeper's 28) beginning
 * with the day after the notice to hirer is given, the amount specified in the notice to keeper
 * has not been paid in full, the creditor will (if all the applicable conditions are met) have the
 * right to recover from the hirer so much of it as remains unpaid. Posted, it is presumed given on
 * the second working day after posting.
 *
 * It also carries what every letter does under the Single Code: private land, the vehicle, land
 * and period, the charge and why, the discount, how to appeal and the independent appeals
 * service, the creditor and how to pay, and the date sent.
 */
export type NoticeToHirerFacts = LetterFacts & {
  hireFirmName: string;
  documentsGivenOn: CalendarDate;
  /** The notice to keeper sent to the hire firm: the day posted and the amount it specified. */
  keeperNoticeSentOn: CalendarDate;
  keeperNoticeUnpaidPence: number;
  hireAgreementReference: string;
};

export function noticeToHirer(facts: NoticeToHirerFacts): KeeperLetter {
  const { operator } = facts;
  const amount = formatPence(facts.keeperNoticeUnpaidPence);
  const sent = formatCalendarDate(facts.sentOn);
  const agreement = facts.hireAgreementReference.trim() ? ` (hire agreement ${facts.hireAgreementReference.trim()})` : '';
  return {
    title: 'Notice to Hirer',
    subtitle: 'Protection of Freedoms Act 2012, Schedule 4, paragraph 14',
    reference: facts.reference,
    sentOn: sent,
    sections: [
      {
        lines: [
          'This parking charge was incurred on private land. It is not a penalty charge notice from a council or the police.',
          `${facts.hireFirmName || 'The vehicle-hire firm'}, the keeper of the vehicle below, has told us that at the time of parking the vehicle was hired to you under a hire agreement${agreement}, and has given us the documents listed below on ${formatCalendarDate(facts.documentsGivenOn)}.`,
        ],
      },
      parkingSection(facts),
      { heading: 'The parking charge', lines: chargeLines(facts) },
      {
        heading: 'You are liable as the hirer',
        lines: [
          `By virtue of paragraph 14 of Schedule 4 to the Protection of Freedoms Act 2012, you, the hirer, are liable to pay the unpaid parking charges of ${amount} specified in the notice to keeper.`,
        ],
      },
      {
        heading: 'Warning',
        lines: [
          `If, after the period of 21 days beginning with the day after that on which this notice to hirer is given, the amount of the unpaid parking charges specified in the notice to keeper (${amount}) has not been paid in full, the creditor will (if all the applicable conditions under Schedule 4 to the Protection of Freedoms Act 2012 are met) have the right to recover from you, the hirer, so much of that amount as remains unpaid.`,
          `Sent by post on ${sent}, this notice is presumed to be given on ${formatCalendarDate(facts.givenOn)}, the second working day after it was sent.`,
        ],
      },
      {
        heading: 'With this notice',
        lines: [
          `A copy of the notice to keeper sent to ${facts.hireFirmName || 'the vehicle-hire firm'} on ${formatCalendarDate(facts.keeperNoticeSentOn)}.`,
          'A copy of the statement signed by or on behalf of the vehicle-hire firm that the vehicle was hired to you under a hire agreement.',
          'A copy of the hire agreement.',
          'A copy of the statement of liability you signed under that hire agreement.',
        ],
      },
      disputeSection(facts, discountFromThisLetter(facts)),
      {
        heading: 'How to pay',
        lines: [
          `Pay ${operator.creditorName}, the creditor, quoting the reference ${facts.reference}.`,
          operator.howToPay.trim(),
          creditorContactLine(operator),
        ],
      },
      evidenceSection(facts),
      { heading: 'This notice', lines: [`This notice was sent by post on ${sent}.`] },
    ],
  };
}
