import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Reads a PDF back the way a reader would: pdfjs-dist (Mozilla's PDF.js, what Firefox shows PDFs
 * with) for the text of each page, and pdf-lib for the image streams as stored, so a test can
 * hash the exact bytes a photo was embedded with.
 */
/** `text` keeps the lines; `flat` has every run of white space as one space, so a wrapped sentence still matches. */
export async function readPdfText(bytes: Uint8Array): Promise<{ pages: string[]; text: string; flat: string }> {
  // PDF.js takes ownership of the buffer it is given: pass a copy.
  const loading = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 });
  const pdf = await loading.promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
    }
    const text = pages.join('\n');
    return { pages, text, flat: text.replace(/\s+/g, ' ') };
  } finally {
    await loading.destroy();
  }
}

/** The bytes of every JPEG image stream (DCTDecode) in the file, as stored. */
export async function findEmbeddedJpegs(bytes: Uint8Array): Promise<Uint8Array[]> {
  const doc = await PDFDocument.load(bytes);
  const jpegs: Uint8Array[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    if (object.dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode')) jpegs.push(object.contents);
  }
  return jpegs;
}

/** How many image streams of any kind the file holds. */
export async function countEmbeddedImages(bytes: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(bytes);
  let count = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if ('dict' in object && (object as PDFRawStream).dict.get(PDFName.of('Subtype')) === PDFName.of('Image')) count++;
  }
  return count;
}

/** Each run of text on a page with where it starts, in millimetres from the page's left and top edges. */
export async function readPdfTextPositions(
  bytes: Uint8Array,
  pageNumber = 1,
): Promise<Array<{ text: string; leftMm: number; topMm: number }>> {
  const loading = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 });
  const pdf = await loading.promise;
  try {
    const page = await pdf.getPage(pageNumber);
    const height = page.view[3]!;
    const content = await page.getTextContent();
    const mm = 25.4 / 72;
    return content.items.flatMap((item) =>
      'str' in item && item.str.trim() !== ''
        ? [{ text: item.str, leftMm: item.transform[4] * mm, topMm: (height - item.transform[5]) * mm }]
        : [],
    );
  } finally {
    await loading.destroy();
  }
}
