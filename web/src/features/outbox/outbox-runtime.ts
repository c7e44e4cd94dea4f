import { API_URL } from '../../config/env.ts';
import { getLocalDb } from '../../lib/local-db/database.ts';
import { retryDraftNow } from '../../lib/local-db/drafts.ts';
import { reportServerReachable } from './server-reachability.ts';
import { createSessionTokenProvider } from './session-token-provider.ts';
import { createOutboxSync, type OutboxRunOptions, type OutboxSync } from './outbox-sync.ts';
import { startOutboxTriggers } from './sync-triggers.ts';

/**
 * The page's one outbox: the engine on the app's database and the mirrored tokens, plus its
 * triggers. The service worker builds its own engine in sw.ts; the Web Lock keeps them apart.
 */
let engine: OutboxSync | null = null;
let stopTriggers: (() => void) | null = null;

export function getPageOutboxSync(): OutboxSync {
  engine ??= createOutboxSync({ db: getLocalDb(), baseUrl: API_URL, tokens: createSessionTokenProvider(getLocalDb()) });
  return engine;
}

/** Call once when the app starts (the shell's effect); returns the matching stop. */
export function startPageOutbox(): () => void {
  if (!stopTriggers) {
    const triggers = startOutboxTriggers(getLocalDb(), getPageOutboxSync(), {
      window,
      document,
      probeServer: async () => {
        // Past the service worker's caches, and short: an answer of any kind means the server is there.
        const response = await fetch(`${API_URL}/health`, { cache: 'no-store', signal: AbortSignal.timeout(5000) });
        return response.ok;
      },
      onReachability: reportServerReachable,
      getServiceWorkerRegistration: async () => {
        if (!('serviceWorker' in navigator)) return null;
        return (await navigator.serviceWorker.getRegistration()) as { sync?: { register(tag: string): Promise<void> } } | undefined;
      },
    });
    stopTriggers = triggers.stop;
  }
  return () => {
    stopTriggers?.();
    stopTriggers = null;
    reportServerReachable(null);
  };
}

/** 'Retry now' on an outbox row: forget its backoff (or requeue it) and send at once. */
export async function retryOutboxDraft(id: string): Promise<void> {
  await retryDraftNow(getLocalDb(), id);
  await requestOutboxSync({ force: true });
}

export async function requestOutboxSync(options: OutboxRunOptions = {}): Promise<void> {
  try {
    await getPageOutboxSync().run(options);
  } catch (error) {
    console.warn('Outbox sync failed', error);
  }
}
