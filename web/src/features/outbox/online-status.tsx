import { CloudOff } from 'lucide-react';
import { OUTBOX_TEXTS } from './outbox-texts.ts';
import { useIsOnline } from './use-outbox.ts';
import './outbox.css';

/** Top-bar indicator: shown only while offline, announced politely to screen readers. */
export function OnlineStatus() {
  const isOnline = useIsOnline();
  return (
    <span role="status" className="outbox-indicators">
      {isOnline ? null : (
        <span className="outbox-pill outbox-pill--offline" title={OUTBOX_TEXTS.offlineDetail}>
          <CloudOff size={16} aria-hidden="true" />
          <span className="outbox-pill__text">{OUTBOX_TEXTS.offline}</span>
        </span>
      )}
    </span>
  );
}
