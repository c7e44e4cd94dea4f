/// <reference types="vite-plugin-pwa/react" />
import { useRegisterSW } from 'virtual:pwa-register/react';
import { OUTBOX_TEXTS } from '../features/outbox/outbox-texts.ts';
import './pwa-update-prompt.css';

/** An officer can keep the app open for a whole shift; look for a new version now and then. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60_000;

/**
 * Registers the service worker and, when a new version is waiting, offers 'Reload'. The new
 * version never takes over by itself: reloading in the middle of a form is the officer's call
 * (their draft is in IndexedDB either way, but the moment is theirs to choose).
 */
export function PwaUpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine && document.visibilityState === 'visible') void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    },
    onRegisterError(error: unknown) {
      console.warn('Service worker registration failed; the app works online only', error);
    },
  });

  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="alert">
      <p className="update-prompt__text">{OUTBOX_TEXTS.updateAvailable}</p>
      {/* Plain buttons: this prompt is part of every first load, react-aria is not. */}
      <button type="button" className="button button--primary" onClick={() => void updateServiceWorker(true)}>
        {OUTBOX_TEXTS.reload}
      </button>
      <button type="button" className="button button--secondary" onClick={() => setNeedRefresh(false)}>
        {OUTBOX_TEXTS.later}
      </button>
    </div>
  );
}
