import { describe, expect, it } from 'vitest';
import { bulkStatusPath, isFinalStatus, MAX_BULK_PATH_STEPS, PCN_STATUSES, transitionsForAll, undoStatusPath } from './pcn-status.ts';

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

describe('undoStatusPath', () => {
  it('goes back along the moves the bulk change made, newest first, to the status each PCN had', () => {
    expect(undoStatusPath('SUBMITTED', 'UNDER_REVIEW')).toEqual(['SUBMITTED']);
    expect(undoStatusPath('UNDER_REVIEW', 'APPROVED')).toEqual(['UNDER_REVIEW']);
    expect(undoStatusPath('SUBMITTED', 'APPROVED')).toEqual(['UNDER_REVIEW', 'SUBMITTED']);
    expect(undoStatusPath('APPROVED', 'ISSUED')).toEqual(['APPROVED']);
  });

  it('never leaves a final status, and undoes no move a bulk change does not make', () => {
    expect(PCN_STATUSES.filter(isFinalStatus)).toEqual(['REJECTED', 'PAID', 'CANCELLED']);
    for (const from of PCN_STATUSES) {
      for (const to of ['REJECTED', 'PAID', 'CANCELLED'] as const) expect(undoStatusPath(from, to)).toBeNull();
    }
    expect(undoStatusPath('SUBMITTED', 'ISSUED')).toBeNull();
    // An undo's own move (Under Review back to Submitted) is not a bulk change: it is not undone in turn.
    expect(undoStatusPath('UNDER_REVIEW', 'SUBMITTED')).toBeNull();
  });

  it('reads as many moves back as the longest bulk path', () => {
    expect(MAX_BULK_PATH_STEPS).toBe(2);
  });
});
