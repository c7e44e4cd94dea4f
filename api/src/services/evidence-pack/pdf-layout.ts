import { rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';
import { toWinAnsi } from '../../domain/evidence-pack-content.ts';

/**
 * The evidence pack's page flow: A4 pages filled top to bottom with wrapped text, label/value
 * rows and photos, and a frame (PCN number, page n of m, generation time) stamped on every page
 * once the page count is known. Every string goes through toWinAnsi here, in one place, because
 * the standard PDF fonts throw on characters they cannot encode.
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = { left: 50, right: 50, top: 70, bottom: 62 };
export const CONTENT_WIDTH = A4.width - MARGIN.left - MARGIN.right;

const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.4, 0.44);
const RULE = rgb(0.78, 0.8, 0.83);
const ACCENT = rgb(0.7, 0.11, 0.11);

export type PackFonts = { regular: PDFFont; bold: PDFFont; mono: PDFFont };

export async function embedPackFonts(doc: PDFDocument): Promise<PackFonts> {
  return {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
}

/**
 * Splits text into lines no wider than `maxWidth`; a word longer than a line (a hash, a URL, or
 * 2,000 letters with no space) is cut by characters. Linear in the text: each character's width
 * is measured once (the standard fonts' widths add up glyph by glyph) and a line's width is kept
 * as it grows, never re-measured, so any text the API accepts lays out in milliseconds.
 */
export function wrapText(text: string, maxWidth: number, widthOf: (text: string) => number): string[] {
  const glyphWidths = new Map<string, number>();
  const widthOfChar = (char: string) => {
    let width = glyphWidths.get(char);
    if (width === undefined) {
      width = widthOf(char);
      glyphWidths.set(char, width);
    }
    return width;
  };
  const spaceWidth = widthOfChar(' ');
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    for (const word of paragraph.split(/ +/)) {
      const chars = Array.from(word);
      const wordWidth = chars.reduce((sum, char) => sum + widthOfChar(char), 0);
      const candidateWidth = line === '' ? wordWidth : lineWidth + spaceWidth + wordWidth;
      if (candidateWidth <= maxWidth) {
        line = line === '' ? word : `${line} ${word}`;
        lineWidth = candidateWidth;
        continue;
      }
      if (line !== '') lines.push(line);
      // The word starts a line; cut it where it overflows, one pass over its characters.
      line = '';
      lineWidth = 0;
      for (const char of chars) {
        const width = widthOfChar(char);
        if (line !== '' && lineWidth + width > maxWidth) {
          lines.push(line);
          line = '';
          lineWidth = 0;
        }
        line += char;
        lineWidth += width;
      }
    }
    lines.push(line);
  }
  return lines;
}

type TextStyle = { font?: keyof PackFonts; size?: number; indent?: number; isMuted?: boolean; gapAfter?: number };

export type PageFlow = ReturnType<typeof createPageFlow>;

export function createPageFlow(doc: PDFDocument, fonts: PackFonts) {
  let page: PDFPage = addPage();
  let y = A4.height - MARGIN.top;

  function addPage(): PDFPage {
    return doc.addPage([A4.width, A4.height]);
  }

  function startPage(): void {
    page = addPage();
    y = A4.height - MARGIN.top;
  }

  /** Moves to a new page unless `height` still fits on this one. */
  function ensureSpace(height: number): void {
    if (y - height < MARGIN.bottom) startPage();
  }

  function isPageEmpty(): boolean {
    return y === A4.height - MARGIN.top;
  }

  function gap(height: number): void {
    y -= height;
  }

  function paragraph(text: string, style: TextStyle = {}): void {
    const font = fonts[style.font ?? 'regular'];
    const size = style.size ?? 10;
    const indent = style.indent ?? 0;
    const lineHeight = size * 1.35;
    for (const line of wrapText(toWinAnsi(text), CONTENT_WIDTH - indent, (t) => font.widthOfTextAtSize(t, size))) {
      ensureSpace(lineHeight);
      y -= lineHeight;
      page.drawText(line, { x: MARGIN.left + indent, y: y + (lineHeight - size) / 2, size, font, color: style.isMuted ? MUTED : INK });
    }
    y -= style.gapAfter ?? 0;
  }

  /** A section title with a rule under it; never left alone at the foot of a page. */
  function heading(text: string, size = 14): void {
    ensureSpace(size * 1.6 + 40);
    gap(6);
    paragraph(text, { font: 'bold', size });
    page.drawLine({
      start: { x: MARGIN.left, y: y - 3 },
      end: { x: MARGIN.left + CONTENT_WIDTH, y: y - 3 },
      thickness: 0.8,
      color: ACCENT,
    });
    gap(12);
  }

  /** Label/value rows: labels in a column of their own, values wrapped beside them. */
  function fields(rows: ReadonlyArray<{ label: string; value: string }>, labelWidth = 150): void {
    const size = 10;
    const lineHeight = size * 1.4;
    for (const row of rows) {
      const valueLines = wrapText(toWinAnsi(row.value), CONTENT_WIDTH - labelWidth, (t) => fonts.regular.widthOfTextAtSize(t, size));
      const labelLines = wrapText(toWinAnsi(row.label), labelWidth - 10, (t) => fonts.bold.widthOfTextAtSize(t, size));
      ensureSpace(Math.min(valueLines.length, 3) * lineHeight);
      const top = y;
      labelLines.forEach((line, index) => {
        page.drawText(line, { x: MARGIN.left, y: top - (index + 1) * lineHeight + 3, size, font: fonts.bold, color: MUTED });
      });
      let rowY = top;
      let hasBroken = false;
      for (const line of valueLines) {
        if (rowY - lineHeight < MARGIN.bottom) {
          startPage();
          rowY = y;
          hasBroken = true;
        }
        rowY -= lineHeight;
        page.drawText(line, { x: MARGIN.left + labelWidth, y: rowY + 3, size, font: fonts.regular, color: INK });
      }
      y = (hasBroken ? rowY : Math.min(rowY, top - labelLines.length * lineHeight)) - 4;
    }
  }

  /** A photo scaled to fit the width and `maxHeight` (never beyond either), with a thin border. */
  function image(embedded: PDFImage, maxHeight: number): void {
    const scale = Math.min(CONTENT_WIDTH / embedded.width, maxHeight / embedded.height);
    const width = embedded.width * scale;
    const height = embedded.height * scale;
    ensureSpace(height + 6);
    y -= height;
    const x = MARGIN.left + (CONTENT_WIDTH - width) / 2;
    page.drawImage(embedded, { x, y, width, height });
    page.drawRectangle({ x, y, width, height, borderColor: RULE, borderWidth: 0.6 });
    y -= 8;
  }

  /** A framed note where something cannot be shown (a removed or non-embeddable photo). */
  function notice(text: string): void {
    const size = 10;
    const lineHeight = size * 1.4;
    const lines = wrapText(toWinAnsi(text), CONTENT_WIDTH - 20, (t) => fonts.regular.widthOfTextAtSize(t, size));
    const height = lines.length * lineHeight + 14;
    ensureSpace(height + 6);
    page.drawRectangle({
      x: MARGIN.left,
      y: y - height,
      width: CONTENT_WIDTH,
      height,
      color: rgb(0.96, 0.96, 0.97),
      borderColor: RULE,
      borderWidth: 0.6,
    });
    lines.forEach((line, index) => {
      page.drawText(line, { x: MARGIN.left + 10, y: y - 7 - (index + 1) * lineHeight + 4, size, font: fonts.regular, color: INK });
    });
    y -= height + 8;
  }

  return { startPage, ensureSpace, isPageEmpty, gap, paragraph, heading, fields, image, notice };
}

/** Header and footer on every page, drawn last so 'Page n of m' knows m. */
export function stampPageFrames(
  doc: PDFDocument,
  fonts: PackFonts,
  frame: { title: string; productName: string; generatedAt: string },
): void {
  const pages = doc.getPages();
  const size = 8.5;
  pages.forEach((page, index) => {
    const top = A4.height - 38;
    const title = toWinAnsi(frame.title);
    page.drawText(title, { x: MARGIN.left, y: top, size: 10, font: fonts.bold, color: INK });
    const brand = toWinAnsi(frame.productName);
    page.drawText(brand, {
      x: A4.width - MARGIN.right - fonts.regular.widthOfTextAtSize(brand, size),
      y: top,
      size,
      font: fonts.regular,
      color: MUTED,
    });
    page.drawLine({ start: { x: MARGIN.left, y: top - 8 }, end: { x: A4.width - MARGIN.right, y: top - 8 }, thickness: 0.5, color: RULE });

    const bottom = 34;
    page.drawLine({
      start: { x: MARGIN.left, y: bottom + 14 },
      end: { x: A4.width - MARGIN.right, y: bottom + 14 },
      thickness: 0.5,
      color: RULE,
    });
    page.drawText(toWinAnsi(`Generated ${frame.generatedAt}`), { x: MARGIN.left, y: bottom, size, font: fonts.regular, color: MUTED });
    const pageText = `Page ${index + 1} of ${pages.length}`;
    page.drawText(pageText, {
      x: A4.width - MARGIN.right - fonts.regular.widthOfTextAtSize(pageText, size),
      y: bottom,
      size,
      font: fonts.regular,
      color: MUTED,
    });
  });
}
