import { PDFDocument } from '@cantoo/pdf-lib';
import { formatPence, MONTHLY_REPORT_PDF, monthlyReportLines, monthlyReportTitle, type MonthlyReport } from '@parkpatrol/shared';
import { formatPackTime } from '../domain/evidence-pack-content.ts';
import { createPageFlow, embedPackFonts, stampPageFrames } from './evidence-pack/pdf-layout.ts';

/**
 * The monthly report as a PDF for a landowner's files: the same lines as the page and the CSV
 * (monthlyReportLines), laid out with the evidence pack's page flow. A page or two of text, so
 * it is drawn on the request's thread.
 */
export async function renderMonthlyReportPdf(
  report: MonthlyReport,
  frame: { generatedAt: Date; productName: string },
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = monthlyReportTitle(report);
  doc.setTitle(title);
  doc.setCreationDate(frame.generatedAt);
  doc.setModificationDate(frame.generatedAt);
  const fonts = await embedPackFonts(doc);
  const flow = createPageFlow(doc, fonts);
  flow.paragraph(title, { font: 'bold', size: 16, gapAfter: 6 });
  flow.paragraph(MONTHLY_REPORT_PDF.intro(report), { gapAfter: 8 });
  let section = '';
  for (const line of monthlyReportLines(report)) {
    if (line.section !== section) {
      section = line.section;
      flow.heading(section, 12);
    }
    const value = line.pence === null ? String(line.count) : `${line.count} (${formatPence(line.pence)})`;
    flow.fields([{ label: line.item, value }], 220);
  }
  flow.gap(8);
  flow.paragraph(MONTHLY_REPORT_PDF.permitsNote, { isMuted: true, size: 9 });
  stampPageFrames(doc, fonts, { title, productName: frame.productName, generatedAt: formatPackTime(frame.generatedAt) });
  return doc.save();
}
