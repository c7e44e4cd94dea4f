import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import QRCode from 'qrcode';
import type { KeeperLetter } from '@parkpatrol/shared';
import { toWinAnsi } from '../../domain/evidence-pack-content.ts';
import { wrapText } from '../evidence-pack/pdf-layout.ts';

/**
 * Notices to keeper as one PDF: an A4 letter per notice (a letter that runs over starts its own
 * next page), the keeper's address where a DL window envelope shows it, the creditor's address
 * and the reference top right. The words come from the one template (shared/src/notice-to-keeper.ts).
 */
const MM = 72 / 25.4;
const A4 = { width: 210 * MM, height: 297 * MM };
const MARGIN = { left: 20 * MM, right: 20 * MM, bottom: 20 * MM, top: 20 * MM };
const CONTENT_WIDTH = A4.width - MARGIN.left - MARGIN.right;
/**
 * A DL window envelope's window, on the letter folded in three: 20 mm from the left edge, its top
 * 50 mm from the top of the page, 90 x 35 mm. The address is set 5 mm inside it, so a letter that
 * shifts in the envelope still shows the whole address (decision 0018).
 */
export const ADDRESS_WINDOW_MM = { left: 20, top: 50, width: 90, height: 35 } as const;
const ADDRESS = { x: (ADDRESS_WINDOW_MM.left + 5) * MM, top: (ADDRESS_WINDOW_MM.top + 5) * MM, width: (ADDRESS_WINDOW_MM.width - 10) * MM };
/**
 * The address's type: 10.5 pt, six lines; a longer address in 8 pt, eight lines (the last
 * baseline stays above the window's foot either way).
 */
const ADDRESS_SIZES = [
  { size: 10.5, leading: 1.3, maxLines: 6 },
  { size: 8, leading: 1.2, maxLines: 8 },
] as const;

/**
 * The address's lines as set in the window: each line wrapped within it (5 mm inside either
 * side), never running off it into the envelope's paper; in the smaller type when the wrapped
 * lines need more room. An address that fits neither keeps its first lines and its last (the
 * postcode, which the post sorts by).
 */
function addressInWindow(lines: readonly string[], font: PDFFont): { lines: string[]; size: number; leading: number } {
  const wrappedAt = (size: number) =>
    lines.flatMap((line) => wrapText(toWinAnsi(line), ADDRESS.width, (text) => font.widthOfTextAtSize(text, size)));
  const [normal, small] = ADDRESS_SIZES;
  const regular = wrappedAt(normal.size);
  if (regular.length <= normal.maxLines) return { ...normal, lines: regular };
  const smaller = wrappedAt(small.size);
  return { ...small, lines: smaller.length <= small.maxLines ? smaller : [...smaller.slice(0, small.maxLines - 1), smaller.at(-1)!] };
}
const INK = rgb(0.05, 0.05, 0.08);
const MUTED = rgb(0.35, 0.37, 0.4);

export type KeeperLetterToRender = {
  letter: KeeperLetter;
  keeperAddress: string[];
  sender: { name: string; address: string };
  /** The motorist's page for this charge, as a QR code beside the title. */
  lookupUrl: string;
};

/** A QR code of `text`, its top-left corner `topMm` from the page's top, drawn as squares (no image to embed). */
function drawQrCode(page: PDFPage, text: string, at: { leftMm: number; topMm: number; sizeMm: number }): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 2;
  const cell = (at.sizeMm * MM) / (modules.size + 2 * quiet);
  const left = at.leftMm * MM;
  const top = A4.height - at.topMm * MM;
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue;
      page.drawRectangle({ x: left + (column + quiet) * cell, y: top - (row + quiet + 1) * cell, width: cell, height: cell, color: INK });
    }
  }
}

type Fonts = { regular: PDFFont; bold: PDFFont };

/** Letters on the operator's paper: the notices to keeper, and an appeal's decision (`title` names the file). */
export async function renderKeeperLetters(
  letters: readonly KeeperLetterToRender[],
  generatedAt: Date,
  title = 'Notices to keeper',
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  const fonts: Fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  for (const letter of letters) writeLetter(doc, fonts, letter);
  return doc.save();
}

function writeLetter(doc: PDFDocument, fonts: Fonts, { letter, keeperAddress, sender, lookupUrl }: KeeperLetterToRender): void {
  let page = doc.addPage([A4.width, A4.height]);
  let pageNumber = 1;
  const draw = (text: string, x: number, yFromTop: number, font: PDFFont, size: number, color = INK) =>
    page.drawText(toWinAnsi(text), { x, y: A4.height - yFromTop, size, font, color });

  // The creditor and the reference, top right.
  const senderX = 120 * MM;
  let senderY = MARGIN.top;
  const senderLines: Array<[string, PDFFont]> = [
    [sender.name, fonts.bold],
    ...sender.address
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line): [string, PDFFont] => [line, fonts.regular]),
    ['', fonts.regular],
    [`Reference: ${letter.reference}`, fonts.bold],
    ...(letter.ticketReference ? [[`Ticket reference: ${letter.ticketReference}`, fonts.regular] as [string, PDFFont]] : []),
    [`Date sent: ${letter.sentOn}`, fonts.regular],
  ];
  for (const [line, font] of senderLines) {
    senderY += 12;
    if (line) draw(line, senderX, senderY, font, 9.5);
  }

  // The keeper's address, in the envelope's window.
  const address = addressInWindow(keeperAddress, fonts.regular);
  for (const [index, line] of address.lines.entries()) {
    draw(line, ADDRESS.x, ADDRESS.top + address.size + index * address.size * address.leading, fonts.regular, address.size);
  }

  // The charge's page, for a phone's camera: right of the address, clear of the window.
  drawQrCode(page, lookupUrl, { leftMm: 160, topMm: 58, sizeMm: 30 });
  draw('See the photos', 160 * MM, 91 * MM, fonts.regular, 8, MUTED);

  let y = 100 * MM;
  draw(letter.title.toUpperCase(), MARGIN.left, y, fonts.bold, 17);
  y += 14;
  draw(letter.subtitle, MARGIN.left, y, fonts.regular, 9.5, MUTED);
  y += 10;

  const newPage = () => {
    page = doc.addPage([A4.width, A4.height]);
    pageNumber++;
    y = MARGIN.top;
    draw(`${letter.title} · Reference ${letter.reference} · page ${pageNumber}`, MARGIN.left, y, fonts.regular, 8.5, MUTED);
    y += 16;
  };
  const paragraph = (text: string, font: PDFFont, size: number, gapAfter: number) => {
    const leading = size * 1.35;
    for (const line of wrapText(toWinAnsi(text), CONTENT_WIDTH, (t) => font.widthOfTextAtSize(t, size))) {
      if (y + leading > A4.height - MARGIN.bottom) newPage();
      y += leading;
      page.drawText(line, { x: MARGIN.left, y: A4.height - y, size, font, color: INK });
    }
    y += gapAfter;
  };
  for (const section of letter.sections) {
    if (section.heading) {
      // A heading is never left alone at the foot of a page.
      if (y + 40 > A4.height - MARGIN.bottom) newPage();
      y += 6;
      paragraph(section.heading, fonts.bold, 10.5, 1);
    }
    for (const line of section.lines) paragraph(line, fonts.regular, 9.5, 3);
  }
  // Enclosures (a letter before claim's Information Sheet and Reply Form): each from a new page of
  // the same letter, headed with the reference, so they are printed, posted and kept with it.
  for (const annex of letter.annexes ?? []) {
    newPage();
    y += 14;
    draw(annex.title.toUpperCase(), MARGIN.left, y, fonts.bold, 15);
    y += 8;
    for (const section of annex.sections) {
      if (section.heading) {
        if (y + 40 > A4.height - MARGIN.bottom) newPage();
        y += 6;
        paragraph(section.heading, fonts.bold, 10.5, 1);
      }
      for (const line of section.lines) paragraph(line, fonts.regular, 9.5, 3);
    }
  }
}

/**
 * Letters already made, one after another in one PDF to print in one go: their pages are copied
 * as they are, so the batch prints exactly the letters kept with each notice.
 */
export async function joinPdfs(files: readonly Uint8Array[], generatedAt: Date, title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  for (const file of files) {
    const source = await PDFDocument.load(file);
    for (const page of await doc.copyPages(source, source.getPageIndices())) doc.addPage(page);
  }
  return doc.save();
}
