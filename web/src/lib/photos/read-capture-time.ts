/**
 * Reads when a JPEG was taken from its EXIF block, before compression: the compressor redraws
 * the picture on a canvas, which drops EXIF, and the capture time is evidence.
 * A small reader of exactly what we need (DateTimeOriginal, else DateTime; OffsetTimeOriginal
 * when the camera wrote one) rather than a whole EXIF library in the officer's bundle.
 */

const TAG_EXIF_IFD = 0x8769;
const TAG_DATE_TIME = 0x0132;
const TAG_DATE_TIME_ORIGINAL = 0x9003;
const TAG_OFFSET_TIME_ORIGINAL = 0x9011;
const TYPE_ASCII = 2;
const TYPE_LONG = 4;

/** ISO capture time, or null when the bytes are not a JPEG with a readable EXIF date. */
export function readJpegCaptureTime(buffer: ArrayBuffer): string | null {
  const view = new DataView(buffer);
  if (view.byteLength < 4 || view.getUint16(0) !== 0xffd8) return null;
  let offset = 2;
  while (offset + 4 <= view.byteLength) {
    if (view.getUint8(offset) !== 0xff) return null;
    const marker = view.getUint8(offset + 1);
    // Start of scan: image data follows and no metadata comes after it.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = view.getUint16(offset + 2);
    if (marker === 0xe1 && isExifHeader(view, offset + 4))
      return readTiffDate(view, offset + 10, Math.min(view.byteLength, offset + 2 + length));
    offset += 2 + length;
  }
  return null;
}

function isExifHeader(view: DataView, at: number): boolean {
  return at + 6 <= view.byteLength && view.getUint32(at) === 0x45786966 && view.getUint16(at + 4) === 0; // "Exif\0\0"
}

function readTiffDate(view: DataView, tiff: number, end: number): string | null {
  if (tiff + 8 > end) return null;
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return null;
  const little = order === 0x4949;
  const ifd0 = tiff + view.getUint32(tiff + 4, little);
  const ifd0Tags = readIfd(view, tiff, ifd0, end, little);
  const exifPointer = ifd0Tags.get(TAG_EXIF_IFD);
  const exifTags =
    exifPointer?.type === TYPE_LONG ? readIfd(view, tiff, tiff + exifPointer.value, end, little) : new Map<number, IfdEntry>();
  const original = readAscii(view, tiff, exifTags.get(TAG_DATE_TIME_ORIGINAL), end);
  const offsetText = readAscii(view, tiff, exifTags.get(TAG_OFFSET_TIME_ORIGINAL), end);
  const stamp = original ?? readAscii(view, tiff, ifd0Tags.get(TAG_DATE_TIME), end);
  return stamp ? toIsoTime(stamp, original ? offsetText : null) : null;
}

type IfdEntry = { type: number; count: number; value: number; valueOffset: number };

function readIfd(view: DataView, tiff: number, at: number, end: number, little: boolean): Map<number, IfdEntry> {
  const entries = new Map<number, IfdEntry>();
  if (at < tiff || at + 2 > end) return entries;
  const count = view.getUint16(at, little);
  for (let i = 0; i < count; i++) {
    const entry = at + 2 + i * 12;
    if (entry + 12 > end) break;
    entries.set(view.getUint16(entry, little), {
      type: view.getUint16(entry + 2, little),
      count: view.getUint32(entry + 4, little),
      value: view.getUint32(entry + 8, little),
      valueOffset: entry + 8,
    });
  }
  return entries;
}

function readAscii(view: DataView, tiff: number, entry: IfdEntry | undefined, end: number): string | null {
  if (!entry || entry.type !== TYPE_ASCII) return null;
  // Up to four bytes sit in the entry itself; longer strings are at an offset from the TIFF start.
  const start = entry.count <= 4 ? entry.valueOffset : tiff + entry.value;
  if (start + entry.count > end) return null;
  let text = '';
  for (let i = 0; i < entry.count; i++) {
    const code = view.getUint8(start + i);
    if (code === 0) break;
    text += String.fromCharCode(code);
  }
  return text.trim() || null;
}

/**
 * "YYYY:MM:DD HH:MM:SS" carries no zone: it is the camera's local time. With an offset
 * ("+01:00") it is exact; without one we read it in the phone's zone, which is where the
 * officer standing in the car park took it.
 */
function toIsoTime(stamp: string, offset: string | null): string | null {
  const match = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(stamp);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number) as [number, number, number, number, number, number, number];
  if (year < 1990 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  if (offset && /^[+-]\d{2}:\d{2}$/.test(offset)) {
    const text = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}${offset}`;
    const time = Date.parse(text);
    return Number.isNaN(time) ? null : new Date(time).toISOString();
  }
  const local = new Date(year, month - 1, day, hour, minute, second);
  return Number.isNaN(local.getTime()) ? null : local.toISOString();
}
