import { Link } from 'react-router-dom';
import { CloudUpload } from 'lucide-react';
import { paths } from '../../config/paths.ts';
import { OUTBOX_TEXTS } from './outbox-texts.ts';
import { useUnsentCount } from './use-outbox.ts';
import './outbox.css';

/** Top-bar count of notices not yet on the server ('2 unsent'); hidden when there are none; a tap opens the outbox. */
export function UnsentCount({ userId }: { userId: string | null }) {
  const count = useUnsentCount(userId);
  if (count === 0) return null;
  return (
    <Link
      to={paths.pcns}
      className="outbox-pill outbox-pill--unsent"
      aria-label={OUTBOX_TEXTS.unsentCountLabel(count)}
      title={OUTBOX_TEXTS.unsentCountLabel(count)}
    >
      <CloudUpload size={16} aria-hidden="true" />
      {count} <span className="outbox-pill__text">{OUTBOX_TEXTS.unsent}</span>
    </Link>
  );
}
