/**
 * A PNG's chunks, read as the decoders that draw it read them. A PNG's size is whatever its IHDR
 * says, but the evidence pack's decoder (pdf-lib's UPNG) takes the LAST IHDR it meets and decodes
 * every APNG frame (acTL/fcTL/fdAT, each with its own size) before it looks at the first: a PNG
 * that shows a small first header can make it decode 8000 x 8000 pixels, or eight frames. So a
 * photo counts as a PNG only with exactly one IHDR, first, and no animation chunks; what this
 * returns is then the size every decoder will use. Pure: how much the compressed streams unpack to
 * is measured by services/png-check.ts, from the parts named here.
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ANIMATION_CHUNKS = new Set(['acTL', 'fcTL', 'fdAT']);
/** The largest width or height the PNG format allows (2^31 - 1). */
const MAX_DIMENSION = 0x7fffffff;

/** Bit depths each colour type allows (PNG section 11.2.2), and its samples per pixel. */
const COLOUR_TYPES: Record<number, { depths: readonly number[]; samples: number }> = {
  0: { depths: [1, 2, 4, 8, 16], samples: 1 },
  2: { depths: [8, 16], samples: 3 },
  3: { depths: [1, 2, 4, 8], samples: 1 },
  4: { depths: [8, 16], samples: 2 },
  6: { depths: [8, 16], samples: 4 },
};

/** Adam7's seven passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export type PngProblem =
  /** The chunks do not add up: one runs past the end, bytes follow IEND, there is no IHDR, the IHDR is malformed, or (services/png-check.ts) a compressed stream is broken. */
  | 'DAMAGED'
  /** An IHDR that is not the first chunk, or more than one: the decoder would use another size than the first. */
  | 'HEADER_NOT_SINGLE'
  /** acTL, fcTL or fdAT: frames the decoder unpacks, each at its own size. */
  | 'ANIMATED'
  /** Apple's CgBI variant, wherever its chunk is: not a standard PNG, and its decoders unpack it differently. */
  | 'NOT_STANDARD';

export type PngStructure = {
  width: number;
  height: number;
  pixels: number;
  /** How many bytes the image data unpacks to at most, by its one header (filter bytes included). */
  rawImageBytes: number;
  /** The IDAT payloads, in order: one zlib stream together. */
  imageData: Uint8Array[];
  /**
   * The zlib streams of zTXt, compressed iTXt and iCCP chunks: the pack's decoder unpacks the text
   * ones, and its EXIF reader (exifr) the colour profile, each whole.
   */
  compressedMetadata: Uint8Array[];
};

export function readPngStructure(bytes: Uint8Array): { png: PngStructure } | { problem: PngProblem } {
  if (bytes.length < SIGNATURE.length || SIGNATURE.some((b, i) => bytes[i] !== b)) return { problem: 'DAMAGED' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: { width: number; height: number; depth: number; colourType: number; interlaced: boolean } | null = null;
  const imageData: Uint8Array[] = [];
  const compressedMetadata: Uint8Array[] = [];
  let offset = SIGNATURE.length;
  let isFirst = true;
  let hasEnded = false;
  // The decoder stops at IEND, but the EXIF reader (exifr) walks every chunk to the end of the
  // file and unpacks a colour profile it finds there: nothing may follow IEND.
  while (offset < bytes.length) {
    if (hasEnded) return { problem: 'DAMAGED' };
    if (offset + 12 > bytes.length) return { problem: 'DAMAGED' };
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const start = offset + 8;
    if (length > bytes.length - start - 4) return { problem: 'DAMAGED' };
    const data = bytes.subarray(start, start + length);
    if (type === 'IHDR') {
      if (!isFirst || header) return { problem: 'HEADER_NOT_SINGLE' };
      if (length !== 13) return { problem: 'DAMAGED' };
      header = {
        width: view.getUint32(start),
        height: view.getUint32(start + 4),
        depth: data[8]!,
        colourType: data[9]!,
        interlaced: data[12] === 1,
      };
      const colour = COLOUR_TYPES[header.colourType];
      const isValid =
        header.width >= 1 &&
        header.height >= 1 &&
        header.width <= MAX_DIMENSION &&
        header.height <= MAX_DIMENSION &&
        colour?.depths.includes(header.depth) &&
        data[10] === 0 &&
        data[11] === 0 &&
        data[12]! <= 1;
      if (!isValid) return { problem: 'DAMAGED' };
    } else if (type === 'CgBI') {
      // The decoder takes CgBI wherever it is and then unpacks IDAT as raw deflate, which the
      // zlib count in services/png-check.ts cannot read: refused anywhere.
      return { problem: 'NOT_STANDARD' };
    } else if (isFirst) {
      return { problem: 'HEADER_NOT_SINGLE' };
    } else if (ANIMATION_CHUNKS.has(type)) {
      return { problem: 'ANIMATED' };
    } else if (type === 'IDAT') {
      imageData.push(data);
    } else if (type === 'zTXt' || type === 'iTXt' || type === 'iCCP') {
      const stream = compressedMetadataStream(data, type);
      if (stream) compressedMetadata.push(stream);
    } else if (type === 'IEND') {
      hasEnded = true;
    }
    isFirst = false;
    offset = start + length + 4;
  }
  if (!header) return { problem: 'DAMAGED' };
  const { width, height, depth, colourType, interlaced } = header;
  const bitsPerPixel = depth * COLOUR_TYPES[colourType]!.samples;
  return {
    png: {
      width,
      height,
      pixels: width * height,
      rawImageBytes: rawImageBytes(width, height, bitsPerPixel, interlaced),
      imageData,
      compressedMetadata,
    },
  };
}

/**
 * The bytes a PNG's image data unpacks to: each row is a filter byte and its packed samples; an
 * interlaced image is seven smaller images, one per Adam7 pass (PNG section 8.2).
 */
export function rawImageBytes(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8)));
  if (!interlaced) return rows(width, height);
  let total = 0;
  for (const [x, y, stepX, stepY] of ADAM7) {
    total += rows(Math.max(0, Math.ceil((width - x) / stepX)), Math.max(0, Math.ceil((height - y) / stepY)));
  }
  return total;
}

/**
 * The zlib stream of a compressed metadata chunk: zTXt and iCCP are a name, NUL, method, stream;
 * iTXt is keyword, NUL, flag, method, language, NUL, translated keyword, NUL, text (a stream when
 * the flag is 1). Null when the chunk holds no stream, or its fields do not add up (the readers
 * then find nothing to unpack within the chunk).
 */
function compressedMetadataStream(data: Uint8Array, type: 'zTXt' | 'iTXt' | 'iCCP'): Uint8Array | null {
  const keywordEnd = data.indexOf(0);
  if (keywordEnd < 0) return null;
  if (type !== 'iTXt') return data.subarray(keywordEnd + 2);
  if (data[keywordEnd + 1] !== 1) return null;
  const languageEnd = data.indexOf(0, keywordEnd + 3);
  if (languageEnd < 0) return null;
  const translatedEnd = data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return null;
  return data.subarray(translatedEnd + 1);
}
