import { describe, expect, it } from 'vitest';
import { chargeLines, shownTermsValue, termsFieldLabel } from './car-park-terms.ts';

describe("a car park's terms as Manage Car Parks reads them", () => {
  it('shows the charge with its discount, or says there is none', () => {
    expect(chargeLines({ chargePence: 10_000, reducedChargePence: 6_000, reducedWithinDays: 14 })).toEqual([
      '£100',
      '£60 if paid within 14 days',
    ]);
    expect(chargeLines({ chargePence: 8_550, reducedChargePence: null, reducedWithinDays: null })).toEqual(['£85.50', 'No reduced amount']);
    expect(chargeLines({ chargePence: null, reducedChargePence: null, reducedWithinDays: null })[0]).toBe('No charge set');
  });

  it('names each stored field of the history and reads its values as the admin would: pounds, days, minutes, places', () => {
    expect(termsFieldLabel('graceMinutes')).toBe('Grace period');
    expect(shownTermsValue('graceMinutes', 15)).toBe('15 min');
    expect(shownTermsValue('chargePence', 9_000)).toBe('£90');
    expect(shownTermsValue('reducedChargePence', null)).toBe('none');
    expect(shownTermsValue('reducedWithinDays', 21)).toBe('21 days');
    expect(shownTermsValue('jurisdiction', 'SCOTLAND')).toBe('Scotland');
    expect(shownTermsValue('stayAppliesByDefault', true)).toBe('Yes');
    expect(shownTermsValue('relevantLand', false)).toBe('No');
    expect(shownTermsValue('signageTerms', '')).toBe('none');
    // A field a later version adds still reads, under its own name.
    expect(termsFieldLabel('somethingNew')).toBe('somethingNew');
    expect(shownTermsValue('somethingNew', 3)).toBe('3');
  });
});
