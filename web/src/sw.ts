/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { API_URL } from './config/env.ts';
import { ADMIN_SCREENS_CHUNK } from './config/fixed-chunks.ts';
import { EVIDENCE_CACHE_NAME } from './lib/evidence-cache.ts';
import { getLocalDb } from './lib/local-db/database.ts';
import { createSessionTokenProvider } from './features/outbox/session-token-provider.ts';
import { createOutboxSync } from './features/outbox/outbox-sync.ts';
import { OUTBOX_SYNC_TAG } from './features/outbox/sync-triggers.ts';

/**
 * The service worker (vite-plugin-pwa, injectManifest). It keeps the app shell offline, caches
 * evidence images, and sends the outbox on Background Sync with the same engine as the page.
 * It never activates a new version by itself: the page offers 'Reload' (pwa-update-prompt.tsx),
 * because a swap in the middle of a form would be the officer's loss, not ours.
 */

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** Background Sync is Chromium-only and absent from TypeScript's lib. */
type SyncEvent = ExtendableEvent & { readonly tag: string; readonly lastChance: boolean };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

const apiBase = new URL(API_URL, self.location.origin);
const apiPath = apiBase.pathname.replace(/\/+$/, '');

// Every screen is index.html; /api must reach the network (or fail), never get the shell.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api(\/|$)/] }));

// Evidence images have random, immutable names, so a stored copy never goes stale. Their URLs
// carry a signature that changes with each fetch of the PCN; the cache key drops it so the
// copy taken online is found offline. Only 200s are stored (the strategy's default).
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === apiBase.origin && url.pathname.startsWith(`${apiPath}/uploads/`),
  new CacheFirst({
    cacheName: EVIDENCE_CACHE_NAME,
    plugins: [
      {
        cacheKeyWillBeUsed: async ({ request }) => {
          const url = new URL(request.url);
          url.search = '';
          return url.href;
        },
      },
      new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

// Admin screens are not precached (officers never need them); once an admin opens one, its
// chunks (hashed, so never stale) are kept for the next visit and for offline. Precached files
// never reach this route: precacheAndRoute answers them first.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && url.pathname.startsWith('/assets/'),
  new CacheFirst({
    cacheName: 'admin-screens',
    plugins: [new ExpirationPlugin({ maxEntries: 80, purgeOnQuotaError: true })],
  }),
);

// The admin screens' list has a fixed name and changes with them: the network's copy while
// there is one, the last one kept when offline.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && url.pathname === `/${ADMIN_SCREENS_CHUNK}`,
  new NetworkFirst({ cacheName: 'admin-screens' }),
);

const outbox = createOutboxSync({
  db: getLocalDb(),
  baseUrl: apiBase.href,
  tokens: createSessionTokenProvider(getLocalDb()),
  fetch: (input, init) => self.fetch(input, init),
});

self.addEventListener('sync', (event) => {
  const syncEvent = event as SyncEvent;
  if (syncEvent.tag !== OUTBOX_SYNC_TAG) return;
  syncEvent.waitUntil(
    (async () => {
      // The browser fires 'sync' when it believes there is a connection: ignore the backoff.
      const result = await outbox.run({ force: true });
      // Rejecting asks the browser to fire the sync again later, with its own backoff.
      if (result.pending > 0 && !syncEvent.lastChance) throw new Error(`${result.pending} notices still waiting`);
    })(),
  );
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// An observation's reminder (features/pcns/observations/reminders.ts): tapping it opens that
// observation in the app's window, or a new one when the app is closed.
self.addEventListener('notificationclick', (event) => {
  const notification = (event as NotificationEvent).notification;
  notification.close();
  const url = new URL(String((notification.data as { url?: string } | null)?.url ?? '/dashboard'), self.location.origin);
  if (url.origin !== self.location.origin) return;
  (event as NotificationEvent).waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows[0];
      if (open) {
        await open.focus();
        await open.navigate(url.href).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url.href);
    })(),
  );
});
