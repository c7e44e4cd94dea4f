import {
  chargeLines,
  creditorContactLine,
  disputeSection,
  discountFromThisLetter,
  evidenceSection,
  parkingSection,
  type LetterFacts,
} from './driver-and-hirer-letters.ts';
import { formatCalendarDate, type KeeperLiabilityGap } from './keeper-liability.ts';
import type { KeeperLetter } from './notice-to-keeper.ts';

/**
 * THE wording of the request to name the driver: the one template. Where Schedule 4 does not
 * reach the land (Scotland or Northern Ireland; or land in England and Wales that is not
 * "relevant land" under paragraph 3, such as land under byelaws) there is no keeper liability, so
 * the letter to the registered keeper claims none: no notice to keeper, no warning that the keeper
 * will become liable. It says why, that the driver is liable, and asks the keeper, if they were
 * not the driver, to tell us who was; if they were, to pay or appeal. And what every letter says
 * under the Single Code: private land, the vehicle, land and period, the charge and why, the
 * discount, how to appeal and the independent appeals service, the creditor, and the date sent.
 */
export type RequestToNameDriverFacts = LetterFacts & { gap: KeeperLiabilityGap };

const WHY_NO_KEEPER_LIABILITY: Record<KeeperLiabilityGap, string> = {
  OUTSIDE_ENGLAND_AND_WALES:
    'The land is not in England or Wales, so Schedule 4 to the Protection of Freedoms Act 2012 (which can make a keeper liable) does not apply to it.',
  NOT_RELEVANT_LAND:
    'Parking on this land is subject to byelaws or other statutory control, so it is not "relevant land" under Schedule 4 to the Protection of Freedoms Act 2012, which therefore does not apply.',
};

export function requestToNameDriver(facts: RequestToNameDriverFacts): KeeperLetter {
  const { operator } = facts;
  const sent = formatCalendarDate(facts.sentOn);
  return {
    title: 'Request to Name the Driver',
    subtitle: 'Parking charge: we are writing to you as the registered keeper',
    reference: facts.reference,
    sentOn: sent,
    sections: [
      {
        lines: [
          'This parking charge was incurred on private land. It is not a penalty charge notice from a council or the police.',
          'We are writing to you as the registered keeper of the vehicle below, whose details the DVLA gave us.',
        ],
      },
      {
        heading: 'This is not a notice to keeper',
        lines: [
          WHY_NO_KEEPER_LIABILITY[facts.gap],
          'We do not claim that you are liable for this charge as the keeper. The driver is liable for it.',
        ],
      },
      parkingSection(facts),
      { heading: 'The parking charge', lines: chargeLines(facts) },
      {
        heading: 'What we ask of you',
        lines: [
          `If you were not the driver, please tell us the name of the driver and a current address for the driver, quoting the reference ${facts.reference}, and pass this letter on to them.`,
          'If you were the driver, please pay the charge or appeal against it as set out below.',
          `Sent by post on ${sent}, this letter is presumed to be given on ${formatCalendarDate(facts.givenOn)}, the second working day after it was sent.`,
        ],
      },
      disputeSection(facts, discountFromThisLetter(facts)),
      {
        heading: 'How to pay, or to tell us who was driving',
        lines: [
          `Pay ${operator.creditorName}, or write to it with the driver's name and address, quoting the reference ${facts.reference}.`,
          operator.howToPay.trim(),
          creditorContactLine(operator),
        ],
      },
      evidenceSection(facts),
      { heading: 'This letter', lines: [`This letter was sent by post on ${sent}.`] },
    ],
  };
}
