import { describe, expect, it } from 'vitest';
import { bulkStatusPath, transitionsForAll } from './pcn-status.ts';

describe('transitionsForAll', () => {
  it('offers what one status allows when all share it, and approval from Submitted in one action', () => {
    expect(transitionsForAll(['SUBMITTED', 'SUBMITTED'])).toEqual(['UNDER_REVIEW', 'APPROVED', 'REJECTED', 'CANCELLED']);
  });

  it('offers only what every selected status allows', () => {
    expect(transitionsForAll(['SUBMITTED', 'UNDER_REVIEW'])).toEqual(['APPROVED', 'REJECTED', 'CANCELLED']);
    expect(transitionsForAll(['APPROVED', 'ISSUED'])).toEqual(['CANCELLED']);
  });

  it('offers nothing when a final status is among them, or nothing is selected', () => {
    expect(transitionsForAll(['SUBMITTED', 'PAID'])).toEqual([]);
    expect(transitionsForAll([])).toEqual([]);
  });
});

describe('bulkStatusPath', () => {
  it('is the move itself when it is allowed, through Under Review for approving a Submitted notice, and nothing else', () => {
    expect(bulkStatusPath('UNDER_REVIEW', 'APPROVED')).toEqual(['APPROVED']);
    expect(bulkStatusPath('SUBMITTED', 'APPROVED')).toEqual(['UNDER_REVIEW', 'APPROVED']);
    expect(bulkStatusPath('SUBMITTED', 'ISSUED')).toBeNull();
    expect(bulkStatusPath('PAID', 'CANCELLED')).toBeNull();
  });
});
