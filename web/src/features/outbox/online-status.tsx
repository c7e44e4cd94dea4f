import { Link } from 'react-router-dom';
import { CloudOff } from 'lucide-react';
import { paths } from '../../config/paths.ts';
import { OUTBOX_TEXTS } from './outbox-texts.ts';
import { useIsOnline } from './use-outbox.ts';
import './outbox.css';

/** Top-bar indicator: shown only while offline, in words on any screen; a tap opens the outbox (My PCNs). */
export function OnlineStatus() {
  const isOnline = useIsOnline();
  return (
    <span role="status" className="outbox-indicators">
      {isOnline ? null : (
        <Link
          to={paths.pcns}
          className="outbox-pill outbox-pill--offline"
          title={OUTBOX_TEXTS.offlineDetail}
          aria-label={`${OUTBOX_TEXTS.offline}: ${OUTBOX_TEXTS.offlineDetail}`}
        >
          <CloudOff size={16} aria-hidden="true" />
          <span className="outbox-pill__text">{OUTBOX_TEXTS.offline}</span>
        </Link>
      )}
    </span>
  );
}
