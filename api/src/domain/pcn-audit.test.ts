import { describe, expect, it } from 'vitest';
import { creationChanges, deletionChanges, diffFields, hasChanges } from './pcn-audit.ts';

describe('diffFields', () => {
  it('keeps only the sent fields whose value changed, with old and new value', () => {
    const before = { description: 'Old', location: 'Bay 1', observedAt: null, stayApplies: false };
    const changes = diffFields(before, {
      description: 'New',
      location: 'Bay 1',
      observedAt: '2026-06-01T09:00:00.000Z',
      stayApplies: undefined,
    });
    expect(changes).toEqual({
      description: { from: 'Old', to: 'New' },
      observedAt: { from: null, to: '2026-06-01T09:00:00.000Z' },
    });
    expect(hasChanges(changes)).toBe(true);
  });

  it('sees no change when the same values are sent again, arrays compared by content', () => {
    const changes = diffFields({ shots: ['signage'], reason: null }, { shots: ['signage'], reason: null });
    expect(changes).toEqual({});
    expect(hasChanges(changes)).toBe(false);
  });

  it('records a value cleared to null', () => {
    expect(diffFields({ duplicateReason: 'Second visit' }, { duplicateReason: null })).toEqual({
      duplicateReason: { from: 'Second visit', to: null },
    });
  });
});

describe('creationChanges and deletionChanges', () => {
  it('lists what a PCN starts with from null, leaving out empty values', () => {
    expect(creationChanges({ vehicleRegistration: 'AB12CDE', description: '', observedAt: null, images: [], stayApplies: false })).toEqual({
      vehicleRegistration: { from: null, to: 'AB12CDE' },
      stayApplies: { from: null, to: false },
    });
  });

  it('lists what a deleted PCN was, each to null', () => {
    expect(deletionChanges({ pcnNumber: '00000001', status: 'SUBMITTED', adminNotes: null })).toEqual({
      pcnNumber: { from: '00000001', to: null },
      status: { from: 'SUBMITTED', to: null },
    });
  });
});
