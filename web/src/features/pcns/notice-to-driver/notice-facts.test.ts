import { describe, expect, it } from 'vitest';
import { COLLECTION_SETTING_DEFAULTS, draftReference, type CarParkTerms, type OperatorTerms } from '@parkpatrol/shared';
import { createEmptyDraft as createEmptyDraftRecord } from '../../../lib/local-db/drafts.ts';
import { createEmptyDraft } from '../pcn-draft.ts';
import { noticeCarParkOf, noticeFromDraft, qrCodeTarget } from './notice-facts.ts';

const TERMS: CarParkTerms = {
  chargePence: 10000,
  reducedChargePence: 6000,
  reducedWithinDays: 14,
  signageTerms: 'Permit holders only',
  jurisdiction: 'ENGLAND_AND_WALES',
};
const OPERATOR: OperatorTerms = {
  creditorName: 'Creditor Ltd',
  creditorAddress: 'PO Box 1',
  creditorPhone: '0113 496 0000',
  creditorEmail: 'a@b.example',
  creditorWebsite: 'b.example',
  howToPay: 'Online.',
  appealsService: 'IAS',
  appealsServiceContact: 'The IAS',
  ...COLLECTION_SETTING_DEFAULTS,
};

function servedDraft() {
  return {
    ...createEmptyDraft(new Date('2026-01-10T10:00:00Z'), '1a2b3c4d-0000-4000-8000-000000000000'),
    vehicleRegistration: 'ab12 cde',
    carParkId: 'park',
    offenceType: 'PARKING_WITHOUT_PERMIT',
    noticeServedBy: 'AFFIXED' as const,
    noticeServedAt: '2026-01-10T10:05:00.000Z',
  };
}

describe('the notice to driver from a draft', () => {
  it('prints the draft reference until the notice has a number', () => {
    expect(draftReference('1a2b3c4d-0000-4000-8000-000000000000')).toBe('D-1A2B3C4D');
    const notice = noticeFromDraft(servedDraft(), { name: 'Yard', address: '1 Road', postcode: 'LS1 1AA', terms: TERMS }, OPERATOR);
    expect(notice.problems).toEqual([]);
    expect(notice.facts).toMatchObject({ reference: 'D-1A2B3C4D', vehicleRegistration: 'AB12CDE', servedAt: '2026-01-10T10:05:00.000Z' });
  });

  it('prints the same notice from the outbox’s row of the filed notice, with the reference the server keeps', () => {
    const draft = servedDraft();
    const filed = {
      ...createEmptyDraftRecord('officer-1', draft.id, Date.parse(draft.createdAt)),
      ...draft,
      offenceType: 'PARKING_WITHOUT_PERMIT' as const,
      createdAt: Date.parse(draft.createdAt),
      state: 'queued' as const,
    };
    const carPark = noticeCarParkOf({
      id: 'park',
      name: 'Yard',
      siteCode: 'YARD',
      address: '1 Road',
      postcode: 'LS1 1AA',
      isActive: true,
      considerationMinutes: 5,
      graceMinutes: 10,
      stayAppliesByDefault: false,
      minimumsOverrideReason: null,
      relevantLand: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      ...TERMS,
    });
    expect(carPark).toEqual({ name: 'Yard', address: '1 Road', postcode: 'LS1 1AA', terms: TERMS });
    const fromForm = noticeFromDraft(draft, carPark, OPERATOR);
    const fromOutbox = noticeFromDraft(filed, carPark, OPERATOR);
    expect(fromOutbox).toEqual(fromForm);
    expect(fromOutbox.facts?.reference).toBe('D-1A2B3C4D');
    expect(noticeFromDraft({ ...filed, noticeServedBy: 'DRIVE_OFF' }, carPark, OPERATOR).facts).toBeNull();
  });

  it('opens the charge page with the draft reference filled in: it finds the charge once the notice is sent', () => {
    expect(qrCodeTarget({ lookupUrl: 'https://app.example/charge', reference: 'D-1A2B3C4D' })).toBe(
      'https://app.example/charge?ref=D-1A2B3C4D',
    );
    expect(qrCodeTarget({ lookupUrl: 'https://app.example/charge', reference: 'PCN-00000123' })).toBe(
      'https://app.example/charge?ref=PCN-00000123',
    );
  });

  it('says why it cannot print: a drive-off, no terms kept on the phone, no operator settings', () => {
    expect(noticeFromDraft({ ...servedDraft(), noticeServedBy: 'DRIVE_OFF' }, { name: 'Yard', terms: TERMS }, OPERATOR).facts).toBeNull();
    expect(noticeFromDraft(servedDraft(), { name: 'Yard' }, OPERATOR).problems).toEqual(['The car park has no charge set.']);
    expect(noticeFromDraft(servedDraft(), { name: 'Yard', terms: TERMS }, null).problems).toEqual([
      'The operator settings (the creditor and the appeals service) are not set.',
    ]);
  });
});
