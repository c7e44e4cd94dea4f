import exifr from 'exifr';
import { exifTimeToInstant, type ExifFacts } from '../../domain/photo-exif.ts';
import { checkPng, isPng } from '../png-check.ts';

/**
 * The capture time and position a photo's own EXIF holds, read by the server (exifr, which reads
 * the metadata segments without decoding the picture). Null when the file has none or cannot be
 * read: the pack then labels the device's report as the device's alone.
 */
export async function readPhotoExif(bytes: Uint8Array): Promise<ExifFacts | null> {
  // exifr unpacks a PNG's colour profile (iCCP) whole, here on the API's own thread: a PNG that
  // would unpack to more than it declares (one stored before uploads were checked) is not read.
  if (isPng(bytes) && 'problem' in (await checkPng(bytes))) return null;
  try {
    const tags = (await exifr.parse(bytes, {
      pick: ['DateTimeOriginal', 'OffsetTimeOriginal', 'GPSLatitude', 'GPSLatitudeRef', 'GPSLongitude', 'GPSLongitudeRef'],
      gps: true,
      // Dates as the camera wrote them: the zone is decided in exifTimeToInstant, not by this server's.
      reviveValues: false,
    })) as Record<string, unknown> | undefined;
    if (!tags) return null;
    const takenAt =
      typeof tags.DateTimeOriginal === 'string'
        ? exifTimeToInstant(tags.DateTimeOriginal, typeof tags.OffsetTimeOriginal === 'string' ? tags.OffsetTimeOriginal : null)
        : null;
    const latitude = typeof tags.latitude === 'number' && Number.isFinite(tags.latitude) ? tags.latitude : null;
    const longitude = typeof tags.longitude === 'number' && Number.isFinite(tags.longitude) ? tags.longitude : null;
    if (takenAt === null && (latitude === null || longitude === null)) return null;
    return { takenAt, latitude: longitude === null ? null : latitude, longitude: latitude === null ? null : longitude };
  } catch {
    return null;
  }
}
