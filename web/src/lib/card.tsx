import type { ReactNode } from 'react';
import { wholeReferences } from './whole-references.tsx';

export function Card({
  title,
  titleId,
  actions,
  children,
  className,
}: {
  title?: ReactNode;
  titleId?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={['card', className].filter(Boolean).join(' ')} aria-labelledby={title ? titleId : undefined}>
      {title || actions ? (
        <header className="card__header">
          {title ? (
            <h2 id={titleId} className="card__title">
              {wholeReferences(title)}
            </h2>
          ) : null}
          {actions ? <div className="card__actions">{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  );
}
