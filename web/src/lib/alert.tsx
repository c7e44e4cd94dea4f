import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import { wholeReferences } from './whole-references.tsx';

type Tone = 'error' | 'success' | 'info';
const ICONS = { error: CircleAlert, success: CircleCheck, info: Info } as const;

/** Errors are announced at once (role=alert); other notes politely (role=status). */
export function Alert({ tone = 'error', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  const Icon = ICONS[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={['alert', `alert--${tone}`, className].filter(Boolean).join(' ')}>
      <Icon aria-hidden="true" size={20} className="alert__icon" />
      <div className="alert__body">{wholeReferences(children)}</div>
    </div>
  );
}
