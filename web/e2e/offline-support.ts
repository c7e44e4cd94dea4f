import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** Helpers of the offline journeys: the app's own IndexedDB, read and filled from the page. */

export type StoredDraft = {
  id: string;
  state: string;
  vehicleRegistration: string;
  serverPcnNumber: string | null;
  serverPcnId: string | null;
  lastError: string | null;
};

/** Waits until the service worker controls the page: from here on the shell loads offline. */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  });
}

/** Every row of one store of the app's database (raw IndexedDB: the test does not ship Dexie). */
export function readStoreRows<T>(page: Page, store: 'drafts' | 'cache' | 'photos'): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('parkpatrol');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction(name).objectStore(name).getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result as T[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    store,
  );
}

/**
 * When the phone kept the cached read whose key holds this (epoch ms), waiting for it: a screen
 * shows what it fetched before its copy is written.
 */
export async function keptAt(page: Page, keyPart: string): Promise<number> {
  let storedAt = 0;
  await expect
    .poll(async () => {
      const row = (await readStoreRows<{ key: string; storedAt: number }>(page, 'cache')).find((entry) => entry.key.includes(keyPart));
      storedAt = row?.storedAt ?? 0;
      return storedAt > 0;
    })
    .toBe(true);
  return storedAt;
}

/** Every draft row in the app's database. */
export function readDrafts(page: Page): Promise<StoredDraft[]> {
  return readStoreRows<StoredDraft>(page, 'drafts');
}

/**
 * Puts submitted notices straight into the outbox, as Submit would leave them (state 'queued',
 * four real JPEGs with their SHA-256): for the network journeys, which are about sending, not
 * about the form (the form is walked through in offline.spec.ts).
 */
export async function addQueuedDrafts(page: Page, registrations: string[], carParkId: string, photoPaths: string[]): Promise<string[]> {
  const photos = photoPaths.map((path) => readFileSync(path).toString('base64'));
  return page.evaluate(
    async ({ registrations, carParkId, photos }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('parkpatrol');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const session = await new Promise<{ userId: string }>((resolve, reject) => {
        const request = db.transaction('auth').objectStore('auth').get('session');
        request.onsuccess = () => resolve(request.result as { userId: string });
        request.onerror = () => reject(request.error);
      });
      const bytes = photos.map((base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer);
      const hashes = await Promise.all(
        bytes.map(async (buffer) =>
          Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', buffer)), (b) => b.toString(16).padStart(2, '0')).join(''),
        ),
      );
      const now = Date.now();
      const ids: string[] = [];
      const tx = db.transaction(['drafts', 'photos'], 'readwrite');
      registrations.forEach((registration, index) => {
        const id = crypto.randomUUID();
        ids.push(id);
        tx.objectStore('drafts').add({
          id,
          userId: session.userId,
          vehicleRegistration: registration,
          carParkId,
          offenceType: 'PARKING_WITHOUT_PERMIT',
          description: 'Queued by the offline journey',
          location: `Bay ${index + 1}`,
          observedAt: new Date(now - 60_000).toISOString(),
          noticeServedBy: 'AFFIXED',
          noticeServedAt: new Date(now - 30_000).toISOString(),
          step: 3,
          state: 'queued',
          attempts: 0,
          nextAttemptAt: 0,
          lastError: null,
          lastErrorFields: null,
          serverPcnId: null,
          serverPcnNumber: null,
          queuedAt: now + index,
          sentAt: null,
          createdAt: now,
          updatedAt: now,
        });
        bytes.forEach((buffer, position) => {
          tx.objectStore('photos').add({
            id: crypto.randomUUID(),
            draftId: id,
            bytes: buffer,
            type: 'image/jpeg',
            name: `photo-${position + 1}.jpg`,
            size: buffer.byteLength,
            takenAt: new Date(now - 60_000 + position * 1000).toISOString(),
            takenAtSource: 'camera',
            sha256: hashes[position],
            position,
            createdAt: now,
          });
        });
      });
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
      return ids;
    },
    { registrations, carParkId, photos },
  );
}

/** Waits until every given draft is sent, nudging the outbox as a returning signal would. */
export async function waitUntilSent(page: Page, ids: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const drafts = (await readDrafts(page)).filter((draft) => ids.includes(draft.id));
    if (drafts.length === ids.length && drafts.every((draft) => draft.state === 'sent')) return drafts;
    if (Date.now() > deadline)
      throw new Error(`Not all sent: ${JSON.stringify(drafts.map((d) => [d.vehicleRegistration, d.state, d.lastError]))}`);
    // 'online' forces a run that ignores the backoff, as when a phone finds signal again.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForTimeout(500);
  }
}

export async function apiToken(
  request: APIRequestContext,
  baseURL: string,
  account = { email: 'officer@example.com', password: 'officer123' },
) {
  const login = await request.post(`${baseURL}/api/auth/login`, { data: account });
  expect(login.status()).toBe(200);
  return ((await login.json()) as { data: { token: string } }).data.token;
}

/** The server's view: exactly one PCN per registration, with its four photos. */
export async function expectOnePcnEach(request: APIRequestContext, baseURL: string, token: string, registrations: string[]) {
  const headers = { Authorization: `Bearer ${token}` };
  const found: Record<string, { id: string; pcnNumber: string; images: number }> = {};
  for (const registration of registrations) {
    const list = await request.get(`${baseURL}/api/pcns`, { headers, params: { search: registration, limit: 100 } });
    const pcns = (
      (await list.json()) as { data: { pcns: Array<{ id: string; pcnNumber: string; vehicleRegistration: string }> } }
    ).data.pcns.filter((pcn) => pcn.vehicleRegistration === registration);
    expect(pcns, `PCNs for ${registration}`).toHaveLength(1);
    const detail = await request.get(`${baseURL}/api/pcns/${pcns[0]!.id}`, { headers });
    const images = ((await detail.json()) as { data: { images: unknown[] } }).data.images.length;
    expect(images, `photos of ${registration}`).toBe(4);
    found[registration] = { id: pcns[0]!.id, pcnNumber: pcns[0]!.pcnNumber, images };
  }
  return found;
}

export async function firstCarParkId(request: APIRequestContext, baseURL: string, token: string): Promise<string> {
  const answer = await request.get(`${baseURL}/api/car-parks`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { data: Array<{ id: string }> }).data[0]!.id;
}

/** A registration no other test or run uses (2-10 letters and digits). */
export function offlineRegistration(prefix: string, index: number): string {
  return `${prefix}${Date.now().toString(36).slice(-5).toUpperCase()}${index}`;
}
