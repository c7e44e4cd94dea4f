import type { DBCore, DBCoreTransaction, Dexie } from 'dexie';

/** What the guard needs of the page: its pagehide and pageshow, and a reload. */
export type CachedPage = {
  addEventListener(type: 'pagehide' | 'pageshow', listener: (event: Event) => void): void;
  location: { reload(): void };
};

/**
 * WebKit (Safari on every iPhone) keeps a page it navigates away from in its back/forward cache
 * with that page's IndexedDB transactions frozen where they stood. Every other page of the app,
 * and the service worker, then wait on those stores for as long as the page stays cached: the
 * next screen sticks at 'Loading...' and the outbox stops (docs/engines.md). So a page going into
 * the cache aborts what it has in flight (a transaction is all or nothing, so nothing is left
 * half-written), and reloads from the database if it is ever shown again, because the work it was
 * doing failed while it slept.
 */
export function abortTransactionsWhenCached(db: Dexie, page: CachedPage): void {
  const inFlight = new Set<IDBTransaction>();
  let aborted = 0;

  db.use({
    stack: 'dbcore',
    name: 'abort-when-cached',
    create(down: DBCore): Partial<DBCore> {
      return {
        ...down,
        transaction(stores, mode, options): DBCoreTransaction {
          const transaction = down.transaction(stores, mode, options);
          // Dexie's IndexedDB core answers the IDBTransaction itself.
          if (transaction instanceof IDBTransaction) {
            inFlight.add(transaction);
            const settle = () => inFlight.delete(transaction);
            transaction.addEventListener('complete', settle);
            transaction.addEventListener('abort', settle);
          }
          return transaction;
        },
      };
    },
  });

  page.addEventListener('pagehide', (event) => {
    if (!(event as PageTransitionEvent).persisted) return;
    for (const transaction of inFlight) {
      try {
        transaction.abort();
        aborted++;
      } catch {
        // Finished between its last event and now: nothing is frozen.
      }
    }
    inFlight.clear();
  });
  page.addEventListener('pageshow', (event) => {
    if ((event as PageTransitionEvent).persisted && aborted > 0) page.location.reload();
  });
}
