import { AUTH_ROW_ID, type AuthRecord } from './records.ts';

/**
 * Reads the `auth` row with IndexedDB's own API, without Dexie: the page reads the session at
 * start and before every request, and the sign-in screen must not download Dexie for that
 * (decision 0008). Writes go through Dexie (session-row.ts), which keeps the schema.
 *
 * One connection is kept, and closed as soon as another wants to upgrade the database, so a new
 * version of the app is never blocked by it. A database that does not exist yet is not created
 * here (Dexie creates it, with its schema, at the first sign-in): there is then no session.
 */
export function createSessionRowReader(name: string): () => Promise<AuthRecord | undefined> {
  let connection: Promise<IDBDatabase | null> | null = null;

  function open(): Promise<IDBDatabase | null> {
    connection ??= new Promise((resolve) => {
      if (typeof indexedDB === 'undefined') return resolve(null);
      const request = indexedDB.open(name);
      request.onupgradeneeded = () => request.transaction?.abort();
      request.onsuccess = () => {
        const db = request.result;
        const forget = () => {
          db.close();
          connection = null;
        };
        db.onversionchange = forget;
        db.onclose = () => void (connection = null);
        resolve(db);
      };
      request.onerror = () => {
        connection = null;
        resolve(null);
      };
    });
    return connection;
  }

  async function readOnce(): Promise<AuthRecord | undefined> {
    const db = await open();
    if (!db) return undefined;
    if (!db.objectStoreNames.contains('auth')) {
      db.close();
      connection = null;
      return undefined;
    }
    return new Promise<AuthRecord | undefined>((resolve, reject) => {
      const request = db.transaction('auth').objectStore('auth').get(AUTH_ROW_ID);
      request.onsuccess = () => resolve(request.result as AuthRecord | undefined);
      request.onerror = () => reject(request.error ?? new Error('Could not read the session kept on this device'));
    });
  }

  return async function readSessionRow() {
    try {
      return await readOnce();
    } catch {
      // The connection closed under the read (an upgrade, the browser): once more on a new one.
      connection = null;
      return readOnce();
    }
  };
}
