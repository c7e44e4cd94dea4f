import {
  chargeLines,
  creditorContactLine,
  disputeSection,
  discountFromThisLetter,
  evidenceSection,
  parkingSection,
  type LetterFacts,
} from './driver-and-hirer-letters.ts';
import { formatCalendarDate } from './keeper-liability.ts';
import type { NamedDriverSource } from './keeper.ts';
import type { KeeperLetter } from './notice-to-keeper.ts';

/**
 * THE wording of the notice to the named driver: the one template. The keeper (in reply to a
 * notice to keeper) or an appeal named the driver with a current address for service (Schedule 4,
 * paragraph 2: where the driver lives or can conveniently be contacted). The creditor then knows
 * both, so the keeper is no longer pursued (keeper liability needs the creditor not to know both,
 * paragraph 5(1)(b), and the warnings of 8(2)(f) and 9(2)(f) say so), and the charge is the
 * driver's, under the contract the signs made: the letter claims nothing under Schedule 4. It
 * tells the driver who named them, the vehicle, land and period, the charge and why, the amount
 * unpaid, the discount, how to appeal and the independent appeals service, the creditor and how
 * to pay, and the date sent.
 */
export type NoticeToNamedDriverFacts = LetterFacts & { namedBy: NamedDriverSource };

const NAMED_BY_WORDS: Record<NamedDriverSource, string> = {
  KEEPER_REPLY: 'The registered keeper of the vehicle below has told us that you were driving it',
  APPEAL: 'An appeal made against this charge told us that you were driving the vehicle below',
};

export function noticeToNamedDriver(facts: NoticeToNamedDriverFacts): KeeperLetter {
  const { operator } = facts;
  const sent = formatCalendarDate(facts.sentOn);
  return {
    title: 'Notice to the Driver',
    subtitle: 'Parking charge: you were named as the driver',
    reference: facts.reference,
    sentOn: sent,
    sections: [
      {
        lines: [
          'This parking charge was incurred on private land. It is not a penalty charge notice from a council or the police.',
          `${NAMED_BY_WORDS[facts.namedBy]} during the period of parking, and gave this address for you. As the driver, you are required to pay the parking charge. We are no longer asking the keeper to pay it.`,
        ],
      },
      parkingSection(facts),
      { heading: 'The parking charge', lines: chargeLines(facts) },
      {
        heading: 'What we ask of you',
        lines: [
          `Please pay the unpaid parking charge, or appeal if you believe it is not owed. If you were not the driver, tell us within 28 days, quoting the reference ${facts.reference}, and we will look again.`,
          `Sent by post on ${sent}, this letter is presumed to be given on ${formatCalendarDate(facts.givenOn)}, the second working day after it was sent.`,
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
      { heading: 'This letter', lines: [`This letter was sent by post on ${sent}.`] },
    ],
  };
}
