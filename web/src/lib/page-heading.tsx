import type { ReactNode } from 'react';
import { wholeReferences } from './whole-references.tsx';

export const PAGE_HEADING_SELECTOR = '[data-page-heading]';

/**
 * The screen's h1. It takes programmatic focus after a route change (see the shell), so screen
 * reader users hear where they arrived; tabIndex -1 keeps it out of the tab order.
 */
export function PageHeading({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <h1 className={['page-heading', className].filter(Boolean).join(' ')} tabIndex={-1} data-page-heading="">
      {wholeReferences(children)}
    </h1>
  );
}

/** Focuses the current screen's h1; false when the screen has not rendered one yet. */
export function focusPageHeading(): boolean {
  const heading = document.querySelector<HTMLElement>(PAGE_HEADING_SELECTOR);
  if (!heading) return false;
  heading.focus({ preventScroll: false });
  return true;
}
