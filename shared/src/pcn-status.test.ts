import { describe, expect, it } from 'vitest';
import { transitionsForAll } from './pcn-status.ts';

describe('transitionsForAll', () => {
  it('offers what one status allows when all share it', () => {
    expect(transitionsForAll(['SUBMITTED', 'SUBMITTED'])).toEqual(['UNDER_REVIEW', 'REJECTED', 'CANCELLED']);
  });

  it('offers only what every selected status allows', () => {
    expect(transitionsForAll(['SUBMITTED', 'UNDER_REVIEW'])).toEqual(['REJECTED', 'CANCELLED']);
    expect(transitionsForAll(['APPROVED', 'ISSUED'])).toEqual(['CANCELLED']);
  });

  it('offers nothing when a final status is among them, or nothing is selected', () => {
    expect(transitionsForAll(['SUBMITTED', 'PAID'])).toEqual([]);
    expect(transitionsForAll([])).toEqual([]);
  });
});
