/**
 * What the server itself reads from a photo's EXIF (capture time and GPS), and how it compares
 * with what the device reported. Pure: the reading (exifr) is in services/evidence-pack.
 */
import { ukWallClock } from './uk-clock.ts';

export type ExifFacts = { takenAt: string | null; latitude: number | null; longitude: number | null };

/** Times further apart than this disagree (a phone clock a little off is not a disagreement). */
export const EXIF_TIME_TOLERANCE_MS = 2 * 60_000;
/** Positions further apart than this disagree (phone GPS is good to tens of metres). */
export const EXIF_DISTANCE_TOLERANCE_M = 100;

function wallClockInLondon(instant: number): string {
  const { year, month, day, hour, minute, second } = ukWallClock(instant);
  return `${year}:${month}:${day} ${hour}:${minute}:${second}`;
}

/**
 * EXIF's DateTimeOriginal is a wall-clock reading ('2026:03:14 09:26:05') with its zone in
 * OffsetTimeOriginal when the camera wrote one; without it, it is read as UK time, where the
 * photos are taken. In the autumn hour that happens twice the earlier (BST) reading is taken; a
 * spring-gap time that never existed is read as BST.
 */
export function exifTimeToInstant(wall: string | null | undefined, offset?: string | null): string | null {
  const match = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec((wall ?? '').trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (Number.isNaN(asUtc) || month < 1 || month > 12) return null;
  const zone = /^([+-])(\d{2}):(\d{2})$/.exec((offset ?? '').trim());
  if (zone) {
    const minutes = (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
    return new Date(asUtc - minutes * 60_000).toISOString();
  }
  const wallText = match[0];
  for (const hoursAhead of [1, 0]) {
    const candidate = asUtc - hoursAhead * 3_600_000;
    if (wallClockInLondon(candidate) === wallText) return new Date(candidate).toISOString();
  }
  return new Date(asUtc - 3_600_000).toISOString();
}

/** Metres between two positions (haversine; plenty for a car park). */
export function distanceMetres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}
