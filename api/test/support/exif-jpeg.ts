/**
 * A JPEG with an EXIF segment holding a capture time (and its zone) and a GPS position, written
 * byte by byte (TIFF, little-endian): the tests need photos whose metadata they control.
 */
type Entry = { tag: number; type: 2 | 4 | 5; count: number; value: Buffer };

function ascii(text: string): Buffer {
  return Buffer.from(`${text}\0`, 'latin1');
}

function rationals(values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 8);
  values.forEach((value, index) => {
    const denominator = 10_000;
    out.writeUInt32LE(Math.round(value * denominator), index * 8);
    out.writeUInt32LE(denominator, index * 8 + 4);
  });
  return out;
}

function degreesMinutesSeconds(decimal: number): number[] {
  const value = Math.abs(decimal);
  const degrees = Math.floor(value);
  const minutes = Math.floor((value - degrees) * 60);
  return [degrees, minutes, (value - degrees - minutes / 60) * 3600];
}

function ifdSize(entries: Entry[]): number {
  return 2 + entries.length * 12 + 4;
}

export function jpegWithExif(
  jpeg: Uint8Array,
  facts: { dateTimeOriginal?: string; offset?: string; latitude?: number; longitude?: number },
): Uint8Array {
  const exifEntries: Entry[] = [];
  if (facts.dateTimeOriginal) exifEntries.push({ tag: 0x9003, type: 2, count: 20, value: ascii(facts.dateTimeOriginal) });
  if (facts.offset) exifEntries.push({ tag: 0x9011, type: 2, count: 7, value: ascii(facts.offset) });
  const gpsEntries: Entry[] = [];
  if (facts.latitude !== undefined && facts.longitude !== undefined) {
    gpsEntries.push({ tag: 0x0001, type: 2, count: 2, value: ascii(facts.latitude < 0 ? 'S' : 'N') });
    gpsEntries.push({ tag: 0x0002, type: 5, count: 3, value: rationals(degreesMinutesSeconds(facts.latitude)) });
    gpsEntries.push({ tag: 0x0003, type: 2, count: 2, value: ascii(facts.longitude < 0 ? 'W' : 'E') });
    gpsEntries.push({ tag: 0x0004, type: 5, count: 3, value: rationals(degreesMinutesSeconds(facts.longitude)) });
  }
  const pointer = (offset: number) => {
    const out = Buffer.alloc(4);
    out.writeUInt32LE(offset);
    return out;
  };
  const ifd0: Entry[] = [{ tag: 0x8769, type: 4, count: 1, value: Buffer.alloc(4) }];
  if (gpsEntries.length > 0) ifd0.push({ tag: 0x8825, type: 4, count: 1, value: Buffer.alloc(4) });
  const ifd0At = 8;
  const exifAt = ifd0At + ifdSize(ifd0);
  const gpsAt = exifAt + ifdSize(exifEntries);
  let dataAt = gpsAt + (gpsEntries.length > 0 ? ifdSize(gpsEntries) : 0);
  ifd0[0]!.value = pointer(exifAt);
  if (ifd0[1]) ifd0[1].value = pointer(gpsAt);

  const data: Buffer[] = [];
  const writeIfd = (entries: Entry[]) => {
    const out = Buffer.alloc(ifdSize(entries));
    out.writeUInt16LE(entries.length, 0);
    entries.forEach((entry, index) => {
      const at = 2 + index * 12;
      out.writeUInt16LE(entry.tag, at);
      out.writeUInt16LE(entry.type, at + 2);
      out.writeUInt32LE(entry.count, at + 4);
      if (entry.value.length <= 4) {
        entry.value.copy(out, at + 8);
      } else {
        out.writeUInt32LE(dataAt, at + 8);
        data.push(entry.value);
        dataAt += entry.value.length;
      }
    });
    return out;
  };
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
  const ifds = [writeIfd(ifd0), writeIfd(exifEntries), ...(gpsEntries.length > 0 ? [writeIfd(gpsEntries)] : [])];
  const tiff = Buffer.concat([header, ...ifds, ...data]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  // Straight after the start-of-image marker, where cameras write it.
  return Buffer.concat([Buffer.from(jpeg.subarray(0, 2)), segment, body, Buffer.from(jpeg.subarray(2))]);
}
