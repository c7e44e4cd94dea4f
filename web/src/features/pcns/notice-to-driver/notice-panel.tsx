import { useState } from 'react';
import { createPortal } from 'react-dom';
import { noticeToDriver, type NoticeDocument } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { RadioField } from '../../../lib/radio-field.tsx';
import { qrCodeTarget, type NoticeToPrint } from './notice-facts.ts';
import { QrCode } from './qr-code.tsx';
import './notice-sheet.css';

const PAPERS = [
  { id: 'roll', label: '80 mm roll' },
  { id: 'a6', label: 'A6' },
] as const;
type Paper = (typeof PAPERS)[number]['id'];

/** The printed page: an 80 mm roll printer's width (long pages, cut where the text ends), or A6. */
const PAGE_RULES: Record<Paper, string> = {
  roll: '@page { size: 80mm 297mm; margin: 4mm; }',
  a6: '@page { size: A6; margin: 6mm; }',
};

/**
 * The notice to driver as it will print, with the paper to print on. What prints is a copy of
 * the sheet placed straight under <body> (notice-sheet.css hides the rest of the page for
 * print), so the app's layout, dialogs and fixed bars never cut it.
 */
export default function NoticePanel({ notice, onClose }: { notice: NoticeToPrint; onClose: () => void }) {
  const [paper, setPaper] = useState<Paper>('roll');
  if (!notice.facts) {
    return (
      <div className="notice-panel">
        <Alert>
          This notice cannot be printed yet.{' '}
          {notice.problems.map((problem) => (
            <span key={problem}>{problem} </span>
          ))}
        </Alert>
      </div>
    );
  }
  const document_ = noticeToDriver(notice.facts);
  return (
    <section className="notice-panel" aria-labelledby="notice-panel-title">
      <h3 id="notice-panel-title">Print preview</h3>
      <RadioField label="Paper" options={PAPERS} value={paper} onChange={(value) => setPaper(value as Paper)} />
      <div className={`notice-preview notice-preview--${paper}`}>
        <NoticeSheet document={document_} lookupUrl={qrCodeTarget(notice.facts)} />
      </div>
      <div className="button-row">
        <Button onPress={() => window.print()}>Print</Button>
        <Button variant="text" onPress={onClose}>
          Close
        </Button>
      </div>
      {createPortal(
        <div className={`notice-print notice-print--${paper}`} aria-hidden="true" data-paper={paper}>
          <style>{PAGE_RULES[paper]}</style>
          <NoticeSheet document={document_} lookupUrl={qrCodeTarget(notice.facts)} />
        </div>,
        document.body,
      )}
    </section>
  );
}

function NoticeSheet({ document, lookupUrl }: { document: NoticeDocument; lookupUrl: string }) {
  return (
    <article className="notice-sheet">
      <header className="notice-sheet__header">
        <p className="notice-sheet__title">{document.title}</p>
        <p className="notice-sheet__subtitle">{document.subtitle}</p>
        <p className="notice-sheet__reference">Reference {document.reference}</p>
      </header>
      {document.sections.map((section, index) => (
        <section key={index} className="notice-sheet__section">
          {section.heading ? <h4 className="notice-sheet__heading">{section.heading}</h4> : null}
          {section.lines.map((line, lineIndex) => (
            <p key={lineIndex}>{line}</p>
          ))}
        </section>
      ))}
      <div className="notice-sheet__qr">
        <QrCode text={lookupUrl} label={`QR code: ${lookupUrl}`} sizeMm={30} />
        <p>Scan to see this charge and its photos.</p>
      </div>
    </article>
  );
}
