import { describe, expect, it } from 'vitest';
import { distanceMetres, exifTimeToInstant } from './photo-exif.ts';

describe('exifTimeToInstant', () => {
  it('uses the zone the camera wrote, and UK time when it wrote none', () => {
    expect(exifTimeToInstant('2026:03:14 09:26:05', '+01:00')).toBe('2026-03-14T08:26:05.000Z');
    expect(exifTimeToInstant('2026:03:14 09:26:05', null)).toBe('2026-03-14T09:26:05.000Z');
    expect(exifTimeToInstant('2026:07:01 10:00:00')).toBe('2026-07-01T09:00:00.000Z');
  });

  it('reads the clock-change days: the repeated autumn hour as BST, the missing spring hour as BST', () => {
    expect(exifTimeToInstant('2026:10:25 01:30:00')).toBe('2026-10-25T00:30:00.000Z');
    expect(exifTimeToInstant('2026:10:25 02:30:00')).toBe('2026-10-25T02:30:00.000Z');
    expect(exifTimeToInstant('2026:03:29 01:30:00')).toBe('2026-03-29T00:30:00.000Z');
    expect(exifTimeToInstant('2026:12:31 23:59:59')).toBe('2026-12-31T23:59:59.000Z');
  });

  it('refuses what is not an EXIF time', () => {
    expect(exifTimeToInstant('yesterday')).toBeNull();
    expect(exifTimeToInstant('2026:13:01 00:00:00')).toBeNull();
    expect(exifTimeToInstant(null)).toBeNull();
  });
});

describe('distanceMetres', () => {
  it('measures a car park in metres', () => {
    const a = { latitude: 51.50135, longitude: -0.14189 };
    expect(distanceMetres(a, a)).toBe(0);
    expect(Math.round(distanceMetres(a, { latitude: 51.50225, longitude: -0.14189 }))).toBe(100);
  });
});
