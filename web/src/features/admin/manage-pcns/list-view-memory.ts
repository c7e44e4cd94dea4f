import { useEffect } from 'react';
import { REVIEW_PARAM } from './review-href.ts';

const KEY = 'parkpatrol.admin-pcns.view';
type SavedView = { list: string; scrollY: number; pcnId: string };

/** The list's query without the review: the same view whether a review is open or not. */
function listOf(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(REVIEW_PARAM);
  return params.toString();
}

function read(): SavedView | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as SavedView | null;
    return saved && typeof saved.scrollY === 'number' ? saved : null;
  } catch {
    return null;
  }
}

/** Called when a review opens from the list: where the admin was, to come back to it. */
export function rememberListView(pcnId: string): void {
  sessionStorage.setItem(KEY, JSON.stringify({ list: listOf(window.location.search), scrollY: window.scrollY, pcnId } satisfies SavedView));
}

/** Called as the review steps on (Save & next, Previous): the row to return to is the last one seen. */
export function rememberReviewed(pcnId: string): void {
  const saved = read();
  if (saved && saved.list === listOf(window.location.search)) sessionStorage.setItem(KEY, JSON.stringify({ ...saved, pcnId }));
}

/**
 * Back from a review: the same filters come from the URL; this brings back
 * the scroll position and puts focus on the row last reviewed, once the rows are drawn.
 */
export function useRestoredListView(isReady: boolean): void {
  useEffect(() => {
    if (!isReady) return;
    const saved = read();
    sessionStorage.removeItem(KEY);
    if (!saved || saved.list !== listOf(window.location.search)) return;
    window.scrollTo(0, saved.scrollY);
    // react-aria draws the rows a moment after the data arrives: look for a few frames.
    let frame = 0;
    let attempts = 0;
    const focusRow = () => {
      const link = document.querySelector<HTMLElement>(`[data-review-id="${CSS.escape(saved.pcnId)}"]`);
      if (link) {
        link.focus({ preventScroll: true });
        // The row may sit elsewhere now (Save & next moved on): show it without jumping needlessly.
        link.scrollIntoView({ block: 'nearest' });
      } else if (++attempts < 30) frame = requestAnimationFrame(focusRow);
    };
    frame = requestAnimationFrame(focusRow);
    return () => cancelAnimationFrame(frame);
  }, [isReady]);
}
