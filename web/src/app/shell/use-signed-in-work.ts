import { useEffect } from 'react';
import { requestOutboxSync, startPageOutbox } from '../../features/outbox/outbox-runtime.ts';
import { apiClient } from '../../lib/api-client.ts';
import { keepFilingDataFresh } from '../../lib/filing-data.ts';
import { getLocalDb } from '../../lib/local-db/database.ts';
import { pageDraftJournal, replayDraftJournal } from '../../lib/local-db/draft-journal.ts';
import { requestPersistentStorage } from '../../lib/local-db/persistent-storage.ts';

const HEARTBEAT_INTERVAL_MS = 60_000;

/**
 * What runs in the background while an officer is signed in: the outbox (sending on start, on
 * signal, on becoming visible, on its backoff timer), what filing needs kept on the phone, a
 * request that the browser keep our storage, and the time-on-site heartbeat.
 */
export function useSignedInWork(userId: string | null) {
  useEffect(() => {
    if (!userId) return;
    // Without it, Safari may evict IndexedDB after seven days without a visit, unsent notices too.
    void requestPersistentStorage();
    const stopOutbox = startPageOutbox();
    // Form writes the last page left in flight (decision 0045): a Submit among them is sent now.
    void replayDraftJournal(getLocalDb(), pageDraftJournal(), userId).then((queued) => {
      if (queued > 0) void requestOutboxSync();
    });
    // Ready to file with no signal from sign-in on: the car parks, kept on the phone.
    const stopFilingData = keepFilingDataFresh(userId);
    return () => {
      stopOutbox();
      stopFilingData();
    };
  }, [userId]);
  useHeartbeat(userId);
}

/** POST /tracking/heartbeat about once a minute while the page is visible (admin analytics). */
function useHeartbeat(userId: string | null) {
  useEffect(() => {
    if (!userId) return;
    let timer: ReturnType<typeof setInterval> | null = null;
    const beat = () => {
      if (document.visibilityState !== 'visible') return;
      // Time on site is a statistic: a lost beat is not worth a message or a retry.
      void apiClient
        .call('POST /tracking/heartbeat', { json: { path: location.pathname.slice(0, 200) }, fallbackMessage: '' })
        .catch(() => undefined);
    };
    const start = () => {
      if (timer) return;
      beat();
      timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
    };
    const stop = () => {
      if (timer) clearInterval(timer);
      timer = null;
    };
    const onVisibilityChange = () => (document.visibilityState === 'visible' ? start() : stop());
    document.addEventListener('visibilitychange', onVisibilityChange);
    if (document.visibilityState === 'visible') start();
    return () => {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      stop();
    };
  }, [userId]);
}
