import { describe, expect, it } from 'vitest';
import { isSameParkingEvent, parkingEventDay, utcDayRange, type ParkingEvent } from './duplicates.ts';

const base: ParkingEvent = {
  vehicleRegistration: 'AB12CDE',
  carParkId: 'cp-1',
  observedAt: '2026-06-01T09:30:00.000Z',
  createdAt: '2026-06-01T09:50:00.000Z',
};

describe('isSameParkingEvent', () => {
  it('matches the same vehicle at the same car park on the same day, registration compared normalised', () => {
    expect(isSameParkingEvent(base, { ...base, vehicleRegistration: 'ab12 cde', observedAt: '2026-06-01T17:00:00.000Z' })).toBe(true);
  });

  it('tells apart another vehicle, another car park and another day', () => {
    expect(isSameParkingEvent(base, { ...base, vehicleRegistration: 'AB12CDF' })).toBe(false);
    expect(isSameParkingEvent(base, { ...base, carParkId: 'cp-2' })).toBe(false);
    expect(isSameParkingEvent(base, { ...base, observedAt: '2026-06-02T09:30:00.000Z' })).toBe(false);
  });

  it('uses the first sighting, else the creation time, and the UTC day', () => {
    const late = { ...base, observedAt: '2026-06-01T23:59:59.999Z' };
    expect(isSameParkingEvent(base, late)).toBe(true);
    expect(isSameParkingEvent(base, { ...base, observedAt: '2026-06-02T00:00:00.000Z' })).toBe(false);
    expect(isSameParkingEvent(base, { ...base, observedAt: null, createdAt: '2026-06-01T22:00:00.000Z' })).toBe(true);
    // 00:30 BST on 2 June is 23:30 UTC on 1 June: the same (UTC) day as the morning's notice.
    expect(parkingEventDay({ observedAt: '2026-06-02T00:30:00+01:00', createdAt: '2026-06-02T00:00:00Z' })).toBe('2026-06-01');
  });
});

describe('utcDayRange', () => {
  it('is the half-open UTC day, across month and year ends', () => {
    expect(utcDayRange('2026-06-01')).toEqual({ start: '2026-06-01T00:00:00.000Z', end: '2026-06-02T00:00:00.000Z' });
    expect(utcDayRange('2026-12-31')).toEqual({ start: '2026-12-31T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
    expect(utcDayRange('2026-03-29').end).toBe('2026-03-30T00:00:00.000Z');
  });
});
