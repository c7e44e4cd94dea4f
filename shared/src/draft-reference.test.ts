import { describe, expect, it } from 'vitest';
import { draftReference, draftReferenceOfKey, normaliseDraftReference } from './draft-reference.ts';
import { normaliseChargeReference } from './public-charge.ts';

describe('draftReference', () => {
  it('is D- and the first eight characters of the draft id, upper-case', () => {
    expect(draftReference('1a2b3c4d-0000-4000-8000-000000000000')).toBe('D-1A2B3C4D');
  });
  it('is worked out from an Idempotency-Key only when the key is a draft id', () => {
    expect(draftReferenceOfKey('1A2B3C4D-0000-4000-8000-000000000000')).toBe('D-1A2B3C4D');
    expect(draftReferenceOfKey('not-a-uuid')).toBeNull();
    expect(draftReferenceOfKey(null)).toBeNull();
  });
});

describe('normaliseDraftReference', () => {
  it('reads the reference as motorists type it', () => {
    for (const typed of ['D-1A2B3C4D', 'd-1a2b3c4d', 'D 1A2B 3C4D', 'D1A2B3C4D', ' d - 1a2b-3c4d ']) {
      expect(normaliseDraftReference(typed), typed).toBe('D-1A2B3C4D');
    }
  });
  it('refuses what cannot be one', () => {
    for (const typed of ['', 'D-', 'D-1A2B3C4', 'D-1A2B3C4D5', 'D-1A2B3C4G', '1A2B3C4D', 'PCN-00000123', 'DD-1A2B3C4D']) {
      expect(normaliseDraftReference(typed), typed).toBeNull();
    }
  });
  it('never reads a PCN number, and a PCN number is never read as one', () => {
    expect(normaliseChargeReference('D-12345678')).toBeNull();
    expect(normaliseDraftReference('12345678')).toBeNull();
  });
  it('reads back what draftReference prints', () => {
    const printed = draftReference('0f9e8d7c-1111-4222-8333-444444444444');
    expect(normaliseDraftReference(printed)).toBe(printed);
  });
});
