import { Children, type ReactNode } from 'react';

/**
 * Our references as they appear in a sentence: a charge's number (PCN-00000123), an appeal's
 * (APL-00000123) and a ticket's draft reference (D-1A2B3C4D). A browser may break a line after
 * their hyphen, leaving "PCN-" at the end of one line on a narrow phone.
 */
const REFERENCE = /\b(?:PCN|APL)-\d{1,10}\b|\bD-[0-9A-F]{8}\b/g;

/**
 * The text with each reference in it kept on one line (the `reference` class: no break inside),
 * the text itself unchanged: what is read, copied or searched is still the reference as typed.
 * Headings, alerts and dialog titles pass their children through it, so every screen that names
 * a reference there shows it whole; other children pass through untouched.
 */
export function wholeReferences(children: ReactNode): ReactNode {
  return Children.map(children, (child) => (typeof child === 'string' ? splitReferences(child) : child));
}

function splitReferences(text: string): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(
      <span key={match.index} className="reference">
        {match[0]}
      </span>,
    );
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
