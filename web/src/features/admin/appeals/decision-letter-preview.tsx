import { useId } from 'react';
import type { KeeperLetter } from '@parkpatrol/shared';

/**
 * The decision letter's words as the server's one template drew them for this decision, to read
 * before it is recorded. A box of its own that scrolls (and takes the focus, so it scrolls by
 * keyboard too), so the dialog's buttons stay in view beside a long letter.
 */
export function DecisionLetterPreview({ letter }: { letter: KeeperLetter }) {
  const titleId = useId();
  return (
    <section className="letter-preview" aria-labelledby={titleId} tabIndex={0}>
      <h3 id={titleId} className="letter-preview__title">
        {letter.title}
      </h3>
      <p className="muted">
        {letter.subtitle} · {letter.sentOn}
      </p>
      {letter.sections.map((section, index) => (
        <section key={index} className="letter-preview__section">
          {section.heading ? <h4 className="letter-preview__heading">{section.heading}</h4> : null}
          {section.lines.map((line, lineIndex) => (
            <p key={lineIndex}>{line}</p>
          ))}
        </section>
      ))}
    </section>
  );
}
