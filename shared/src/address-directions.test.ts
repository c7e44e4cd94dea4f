import { describe, expect, it } from 'vitest';
import { amountDue } from './amount-due.ts';
import { endOfUkDay } from './keeper-liability.ts';
import { noticeToDriver } from './notice-to-driver.ts';
import { noticeToHirer } from './notice-to-hirer.ts';
import { noticeToKeeper } from './notice-to-keeper.ts';
import { noticeToNamedDriver } from './notice-to-named-driver.ts';
import type { NoticeSection } from './notice-wording.ts';
import { COLLECTION_SETTING_DEFAULTS, type CarParkTerms, type OperatorTerms } from './operator-terms.ts';
import { requestToNameDriver } from './request-to-name-driver.ts';

/**
 * Every document that sends the motorist to "the address above" or "below" must have the
 * creditor's address on that side of the sentence, in the order the document prints its lines
 * (the notice to driver's sheet, and the A4 letters, print their sections top to bottom, with
 * the letters' letterhead, the creditor's name and address, above everything).
 */
const OPERATOR: OperatorTerms = {
  creditorName: 'Northgate Parking Ltd',
  creditorAddress: 'PO Box 77\nLeeds\nLS2 7XX',
  creditorPhone: '0113 496 0001',
  creditorEmail: 'charges@northgate.example',
  creditorWebsite: 'northgate.example',
  // An operator's own words: they name the address rather than point at it.
  howToPay: 'Pay online at northgate.example/pay, or send a cheque to PO Box 77, Leeds, LS2 7XX.',
  appealsService: 'POPLA',
  appealsServiceContact: 'POPLA, PO Box 1270, Warrington, WA4 9RL',
  ...COLLECTION_SETTING_DEFAULTS,
};
const TERMS: CarParkTerms = {
  chargePence: 10_000,
  reducedChargePence: 6_000,
  reducedWithinDays: 14,
  signageTerms: 'Permit holders only',
  jurisdiction: 'ENGLAND_AND_WALES',
};
const ADDRESS_LINE = 'PO Box 77, Leeds, LS2 7XX';
const CAR_PARK = { name: 'Riverside', address: '1 Riverside Way', postcode: 'LS1 4AB' };
const LETTER = {
  reference: 'PCN-00000042',
  vehicleRegistration: 'AB12CDE',
  vehicleDescription: 'Blue Ford Focus',
  carPark: CAR_PARK,
  parkingStartedAt: '2026-01-20T09:40:00.000Z',
  parkingEndedAt: '2026-01-20T10:05:00.000Z',
  contravention: 'Parking without permit',
  description: '',
  carParkTerms: TERMS,
  operator: OPERATOR,
  unpaidPence: 10_000,
  sentOn: '2026-03-02',
  givenOn: '2026-03-04',
  lookupUrl: 'https://northgate.example/charge',
};

/** The document's lines in print order, the letterhead's address first when it has one. */
function printed(sections: NoticeSection[], letterhead: boolean): string[] {
  return [...(letterhead ? [OPERATOR.creditorName, ADDRESS_LINE] : []), ...sections.flatMap((section) => section.lines)];
}

const DOCUMENTS: Array<[name: string, lines: string[]]> = [
  [
    'notice to driver',
    printed(
      noticeToDriver({
        reference: 'PCN-00000042',
        vehicleRegistration: 'AB12CDE',
        carPark: CAR_PARK,
        firstSeenAt: '2026-01-20T09:40:00.000Z',
        servedAt: '2026-01-20T10:05:00.000Z',
        servedBy: 'AFFIXED',
        contravention: 'Parking without permit',
        description: '',
        carParkTerms: TERMS,
        operator: OPERATOR,
        lookupUrl: 'https://northgate.example/charge',
      }).sections,
      false,
    ),
  ],
  [
    'notice to keeper',
    printed(
      noticeToKeeper({
        route: 'PARAGRAPH_9',
        reference: 'PCN-00000042',
        vehicleRegistration: 'AB12CDE',
        vehicleDescription: 'Blue Ford Focus',
        carPark: CAR_PARK,
        firstSeenAt: '2026-01-20T09:40:00.000Z',
        parkingEndedAt: '2026-01-20T10:05:00.000Z',
        noticeToDriver: null,
        draftReference: null,
        contravention: 'Parking without permit',
        description: '',
        carParkTerms: TERMS,
        operator: OPERATOR,
        sentOn: '2026-02-04',
        givenOn: '2026-02-06',
        lookupUrl: 'https://northgate.example/charge',
        amount: amountDue(
          {
            state: 'OUTSTANDING',
            chargePence: 10_000,
            reducedChargePence: 6_000,
            reducedWithinDays: 14,
            firstNoticeOn: null,
            payments: [],
            appeal: null,
          },
          endOfUkDay('2026-02-03'),
        ),
      }).sections,
      true,
    ),
  ],
  [
    'notice to hirer',
    printed(
      noticeToHirer({
        ...LETTER,
        hireFirmName: 'Hire Co',
        documentsGivenOn: '2026-02-20',
        keeperNoticeSentOn: '2026-02-04',
        keeperNoticeUnpaidPence: 10_000,
        hireAgreementReference: 'HA-1',
      }).sections,
      true,
    ),
  ],
  ['notice to the named driver', printed(noticeToNamedDriver({ ...LETTER, namedBy: 'KEEPER_REPLY' }).sections, true)],
  ['request to name the driver', printed(requestToNameDriver({ ...LETTER, gap: 'NOT_RELEVANT_LAND' }).sections, true)],
];

describe('a document that points at the creditor’s address points the right way', () => {
  for (const [name, lines] of DOCUMENTS) {
    it(name, () => {
      const pointing = lines.flatMap((line, index) => {
        const direction = /the address (above|below)/.exec(line)?.[1];
        return direction ? [{ index, direction }] : [];
      });
      // Each of these documents sends an appeal by post to the creditor's address.
      expect(pointing.length, `${name} names no address to post an appeal to`).toBeGreaterThan(0);
      for (const { index, direction } of pointing) {
        const side = direction === 'below' ? lines.slice(index + 1) : lines.slice(0, index);
        expect(
          side.some((line) => line.includes(ADDRESS_LINE)),
          `"${lines[index]}" points ${direction}, where ${name} prints no address`,
        ).toBe(true);
      }
    });
  }
});
