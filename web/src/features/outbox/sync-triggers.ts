import { liveQuery } from 'dexie';
import type { LocalDb } from '../../lib/local-db/records.ts';
import type { OutboxRunOptions, OutboxRunResult } from './outbox-sync.ts';
import { RETRY_REASONS } from './retry-reasons.ts';
import { isAnyHeadDue, nextWakeAt } from './send-order.ts';

/**
 * When the page runs the outbox (decision 0009): on app start, when the browser says the
 * signal is back, when the app becomes visible again, when a draft becomes due (Submit, 'Retry
 * now', a new sign-in), and on a timer for the earliest backoff. Background Sync is registered
 * too where it exists (Chromium), so the service worker sends even after the tab is closed; iOS
 * Safari and Firefox have none, which is why it is never the only trigger.
 *
 * A phone can keep a network that reaches nothing (one bar, a car park's dead Wi-Fi): the browser
 * never says 'online' again when the server comes back into reach. So while notices wait for
 * want of a connection, the server is asked if it is there every PROBE_INTERVAL_MS, and the
 * moment it answers after not answering, the outbox runs at once, whatever the backoff said.
 */
export const PROBE_INTERVAL_MS = 15_000;

export const OUTBOX_SYNC_TAG = 'outbox';
/** setTimeout cannot wait longer than 2^31-1 ms; a draft is never due that far off anyway. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type OutboxRunner = { run(options?: OutboxRunOptions): Promise<OutboxRunResult> };

export type OutboxTriggerHost = {
  /** Receives 'online'. */
  window: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** Receives 'visibilitychange'. */
  document: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & { visibilityState: string };
  /** Where Background Sync can be registered; null or no `sync` where unsupported. */
  getServiceWorkerRegistration?: () => Promise<{ sync?: { register(tag: string): Promise<void> } } | null | undefined>;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** Whether the server answers now (a cheap GET of its health); absent, no probing. */
  probeServer?: () => Promise<boolean>;
  /**
   * Hears what the looks at the server (probeServer) found while notices wait for a connection:
   * true when the last one found it, false when it did not, null before the first look and once
   * nothing waits for a connection.
   */
  onReachability?: (reachable: boolean | null) => void;
  probeIntervalMs?: number;
};

export function startOutboxTriggers(
  db: LocalDb,
  runner: OutboxRunner,
  host: OutboxTriggerHost,
): { stop(): void; runNow(options?: OutboxRunOptions): Promise<void> } {
  const now = host.now ?? Date.now;
  const reportError = host.onError ?? ((error: unknown) => console.warn('Outbox sync failed', error));
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let lastQueuedSignature = '';
  let probe: ReturnType<typeof setInterval> | null = null;
  /** What the last probe found: null before one, or once nothing waits for a connection. */
  let isServerReachable: boolean | null = null;

  /** What the app was last told of the server (onReachability); said again only when it changes. */
  let reported: boolean | null = null;
  function report(reachable: boolean | null) {
    if (reachable === reported) return;
    reported = reachable;
    host.onReachability?.(reachable);
  }

  async function probeOnce() {
    if (stopped || !host.probeServer || host.document.visibilityState !== 'visible') return;
    const answered = await host.probeServer().catch(() => false);
    // Stopped meanwhile (nothing waits any more): this answer is about a finished wait.
    if (!probe) return;
    const wasReachable = isServerReachable;
    isServerReachable = answered;
    report(answered);
    if (answered && wasReachable !== true) void runNow({ force: true });
  }

  function probeWhile(isWaitingForConnection: boolean) {
    if (isWaitingForConnection && !probe && host.probeServer && !stopped) {
      probe = setInterval(() => void probeOnce(), host.probeIntervalMs ?? PROBE_INTERVAL_MS);
    } else if (!isWaitingForConnection && probe) {
      clearInterval(probe);
      probe = null;
      isServerReachable = null;
      report(null);
    }
  }

  function runNow(options: OutboxRunOptions = {}): Promise<void> {
    if (stopped) return Promise.resolve();
    return runner.run(options).then(
      () => undefined,
      (error: unknown) => reportError(error),
    );
  }

  function schedule(wakeAt: number | null) {
    if (timer) clearTimeout(timer);
    timer = null;
    if (wakeAt === null || stopped) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, wakeAt - now()));
    timer = setTimeout(() => {
      timer = null;
      void runNow();
    }, delay);
  }

  async function registerBackgroundSync() {
    try {
      const registration = await host.getServiceWorkerRegistration?.();
      await registration?.sync?.register(OUTBOX_SYNC_TAG);
    } catch {
      // Not supported, or the browser refused: the page's own triggers still cover the queue.
    }
  }

  // Every change to the waiting drafts (from this tab, another or the service worker) re-arms
  // the timer; a draft that is due now starts a run at once.
  const subscription = liveQuery(() => db.drafts.where('state').anyOf('queued', 'sending').toArray()).subscribe({
    next(drafts) {
      if (stopped) return;
      // The queue goes in filing order (send-order.ts): a notice waits for the one filed before it.
      if (isAnyHeadDue(drafts, now())) void runNow();
      schedule(nextWakeAt(drafts));
      probeWhile(drafts.some((draft) => draft.state === 'queued' && draft.lastError === RETRY_REASONS.offline));
      const queuedSignature = drafts
        .filter((draft) => draft.state === 'queued')
        .map((draft) => draft.id)
        .sort()
        .join(',');
      if (queuedSignature && queuedSignature !== lastQueuedSignature) void registerBackgroundSync();
      lastQueuedSignature = queuedSignature;
    },
    error: reportError,
  });

  // An observation opened or closed on this phone goes to the server at once (docs/decisions/0012).
  let lastObservationSignature = '';
  const observations = liveQuery(() => db.drafts.where('state').anyOf('draft', 'closed').toArray()).subscribe({
    next(drafts) {
      if (stopped) return;
      const signature = drafts
        .filter(
          (draft) => draft.observationStatus && draft.observationStatus !== draft.observationSyncedStatus && !draft.observationSyncError,
        )
        .map((draft) => `${draft.id}:${draft.observationStatus}`)
        .sort()
        .join(',');
      if (signature && signature !== lastObservationSignature) void runNow();
      lastObservationSignature = signature;
    },
    error: reportError,
  });

  // Signal back or a fresh start: whatever the backoff said, now is the best moment to try.
  const onOnline = () => void runNow({ force: true });
  const onVisibilityChange = () => {
    if (host.document.visibilityState === 'visible') void runNow();
  };
  host.window.addEventListener('online', onOnline);
  host.document.addEventListener('visibilitychange', onVisibilityChange);
  void runNow({ force: true });

  return {
    runNow,
    stop() {
      stopped = true;
      subscription.unsubscribe();
      observations.unsubscribe();
      if (timer) clearTimeout(timer);
      if (probe) clearInterval(probe);
      probe = null;
      host.window.removeEventListener('online', onOnline);
      host.document.removeEventListener('visibilitychange', onVisibilityChange);
    },
  };
}
