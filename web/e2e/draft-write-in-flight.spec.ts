import { expect, signIn, test, uniqueRegistration } from './fixtures.ts';
import { readDrafts } from './offline-support.ts';

/**
 * A change whose IndexedDB write never commits (the page was left while it was in flight) is not
 * lost: the form notes it in local storage first, and the next start applies it (decision 0045).
 * A browser cannot be closed at the exact instant of a write, so the page's IndexedDB is made to
 * abort every write of a draft as it opens: no write of that change ever commits, as when the page
 * is gone first. The reload that follows is the next start, with IndexedDB working again.
 */
test('the last change of a draft whose write never committed is there after a reload', async ({ page }, testInfo) => {
  const registration = uniqueRegistration(testInfo);
  // Before the app opens its database (Dexie binds the database's own transaction method then):
  // once the flag is set, no write of a draft commits. A reload starts without the flag.
  await page.addInitScript(() => {
    const open = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      const transaction = open.apply(this, args);
      const [stores, mode] = args;
      const leaving = (globalThis as { writesNeverCommit?: boolean }).writesNeverCommit;
      if (leaving && mode === 'readwrite' && [stores].flat().includes('drafts')) transaction.abort();
      return transaction;
    };
  });
  await signIn(page);
  await page.goto('/pcn/new');
  const field = page.getByLabel('Vehicle registration');
  await field.fill('AB12');
  await expect(page).toHaveURL(/draft=/);
  const draftUrl = page.url();
  const draftId = new URL(draftUrl).searchParams.get('draft');
  await expect.poll(async () => (await readDrafts(page)).find((draft) => draft.id === draftId)?.vehicleRegistration).toBe('AB12');

  // From here no write of a draft commits: the officer's last change is in flight when they leave.
  await page.evaluate(() => ((globalThis as { writesNeverCommit?: boolean }).writesNeverCommit = true));
  await field.fill(registration);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('parkpatrol:draft-journal') ?? '')).toContain(registration);
  expect((await readDrafts(page)).find((draft) => draft.id === draftId)?.vehicleRegistration).toBe('AB12');

  await page.reload();
  expect(page.url()).toBe(draftUrl);
  await expect(page.getByLabel('Vehicle registration')).toHaveValue(registration);
  expect((await readDrafts(page)).find((draft) => draft.id === draftId)?.vehicleRegistration).toBe(registration);
  // Applied once, then forgotten: nothing of the officer's stays in local storage.
  expect(await page.evaluate(() => localStorage.getItem('parkpatrol:draft-journal'))).toBeNull();
});
