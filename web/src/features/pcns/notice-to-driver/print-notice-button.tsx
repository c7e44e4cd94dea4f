import { lazy, Suspense, useState } from 'react';
import { Printer } from 'lucide-react';
import { Button } from '../../../lib/button.tsx';
import type { NoticeToPrint } from './notice-facts.ts';

// Loaded when first opened (and precached for offline use): the form's own bundle stays lean.
const NoticePanel = lazy(() => import('./notice-panel.tsx'));

export const PRINT_NOTICE_LABEL = 'Print notice to driver';

/** 'Print notice to driver': opens the notice's preview with its paper choice and the browser's print. */
export function PrintNoticeButton({ notice }: { notice: () => NoticeToPrint }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <div className="print-notice">
      <Button variant="secondary" onPress={() => setOpen((open) => !open)} aria-expanded={isOpen}>
        <Printer aria-hidden="true" size={18} />
        {PRINT_NOTICE_LABEL}
      </Button>
      {isOpen ? (
        <Suspense fallback={<p role="status">Preparing the notice…</p>}>
          <NoticePanel notice={notice()} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
