import { dedicatedServer } from './dedicated-server.ts';
import { evidencePhotos, expect, signIn, test } from './fixtures.ts';
import {
  addQueuedDrafts,
  apiToken,
  expectOnePcnEach,
  firstCarParkId,
  offlineRegistration,
  readDrafts,
  waitUntilSent,
} from './offline-support.ts';

/**
 * The server dies in the middle of the outbox's queue and comes back on the same data: nothing
 * the phone queued is lost or doubled, on a server of its own (dedicated-server.ts).
 */
const NOTICES = 5;

test.use({ serviceWorkers: 'allow' });

test('a server killed mid-queue and restarted on the same data loses and doubles nothing', async ({ browser, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'runs once: it starts a server of its own');
  test.setTimeout(120_000);
  const server = await dedicatedServer('restart');
  const baseURL = server.baseURL;
  await server.start();
  try {
    const registrations = Array.from({ length: NOTICES }, (_, n) => offlineRegistration('RST', n));
    const token = await apiToken(request, baseURL);
    const context = await browser.newContext({ ...testInfo.project.use, baseURL, serviceWorkers: 'allow' });
    const page = await context.newPage();
    await signIn(page);
    const ids = await addQueuedDrafts(page, registrations, await firstCarParkId(request, baseURL, token), evidencePhotos());

    // The second upload is on its way when the server is killed (no goodbye, no flush): whether
    // it committed or not, the phone must neither lose it nor send it twice.
    let uploads = 0;
    let killed: Promise<void> | null = null;
    await context.route('**/api/pcns', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      uploads++;
      if (uploads === 2) killed = new Promise((r) => setTimeout(r, 15)).then(() => server.stop('SIGKILL'));
      return route.continue();
    });
    // App start is one of the outbox's triggers.
    await page.goto('/pcn');
    await expect.poll(() => killed !== null, { timeout: 30_000 }).toBe(true);
    await killed;
    // The outbox keeps trying against a dead server: notices wait, none is lost, none failed.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect
      .poll(async () => JSON.stringify((await readDrafts(page)).filter((d) => ids.includes(d.id)).map((d) => [d.state, d.lastError])))
      .toContain('No connection');
    const midQueue = (await readDrafts(page)).filter((draft) => ids.includes(draft.id));
    expect(midQueue.filter((draft) => draft.state === 'sent').length).toBeLessThan(NOTICES);
    expect(midQueue.filter((draft) => draft.state === 'failed')).toEqual([]);

    await server.start();
    const drafts = await waitUntilSent(page, ids);
    const onServer = await expectOnePcnEach(request, baseURL, await apiToken(request, baseURL), registrations);
    for (const draft of drafts) expect(draft.serverPcnNumber).toBe(onServer[draft.vehicleRegistration]!.pcnNumber);
    await context.close();
  } finally {
    await server.dispose();
  }
});
