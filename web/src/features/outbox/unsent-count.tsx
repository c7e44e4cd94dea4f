import { CloudUpload } from 'lucide-react';
import { OUTBOX_TEXTS } from './outbox-texts.ts';
import { useUnsentCount } from './use-outbox.ts';
import './outbox.css';

/** Top-bar count of notices not yet on the server; hidden when there are none. */
export function UnsentCount({ userId }: { userId: string | null }) {
  const count = useUnsentCount(userId);
  if (count === 0) return null;
  return (
    <span className="outbox-pill outbox-pill--unsent" aria-label={OUTBOX_TEXTS.unsentCountLabel(count)} title={OUTBOX_TEXTS.unsentCountLabel(count)}>
      <CloudUpload size={16} aria-hidden="true" />
      {count} <span className="outbox-pill__text">{OUTBOX_TEXTS.unsent}</span>
    </span>
  );
}
