import type { Page } from '@playwright/test';

/**
 * Changes the session's pair where the app keeps it: the `auth` row of its IndexedDB (raw
 * IndexedDB: the test does not ship Dexie). localStorage only shows the pair; writing there
 * changes nothing. The page reads the row at its next call.
 */
export async function changeSessionPair(page: Page, pair: { token?: string; refreshToken?: string }): Promise<void> {
  await page.evaluate(
    (changes) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('parkpatrol');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('auth', 'readwrite').objectStore('auth');
          const read = store.get('session');
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            if (!read.result) return reject(new Error('No session is kept on this device'));
            const write = store.put({ ...read.result, ...changes });
            write.onerror = () => reject(write.error);
            write.onsuccess = () => {
              open.result.close();
              resolve();
            };
          };
        };
      }),
    pair,
  );
}
