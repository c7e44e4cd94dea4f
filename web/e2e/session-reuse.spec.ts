import { ADMIN, apiToken, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import { expect, signIn, test } from './fixtures.ts';
import { changeSessionPair } from './session-support.ts';

/** The session survives a refresh the page abandoned after the server had rotated the token. */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a session on the phone it is for');
});

// A well-formed JWT the server did not sign (and long expired): the API answers 401.
const EXPIRED = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4IiwiZXhwIjoxNjAwMDAwMDAwfQ.c2lnbmF0dXJlLW5vdC12YWxpZA';

test('a refresh cut off after the server rotated the token, then a restart: still signed in, with the pair the server gave', async ({
  page,
  request,
}) => {
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Reuse ${uniqueSuffix()}`);
  const officer = await createOfficer(request, adminToken, 'Ivy', [carParkId]);
  await signIn(page, officer);
  await page.waitForLoadState('networkidle');
  const signedInWith = await page.evaluate(() => localStorage.getItem('refreshToken'));

  // The server answers the refresh, and the phone never hears it: the connection drops. Every
  // refresh this page tries while it is cut off (the dashboard's own 401s try again) meets the same.
  let rotatedTo: string | null = null;
  await page.route('**/api/auth/refresh', async (route) => {
    const answer = await route.fetch();
    rotatedTo ??= ((await answer.json()) as { data: { refreshToken: string } }).data.refreshToken;
    await route.abort('connectionreset');
  });
  await changeSessionPair(page, { token: EXPIRED });
  await page.reload();
  await expect.poll(() => rotatedTo).not.toBeNull();
  // The phone still holds the token the server has already rotated.
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBe(signedInWith);

  // The app starts again with signal: it presents the rotated token and gets the same new pair.
  // A refresh still in the cut-off handler is dropped with the page that sent it. The page's own
  // next try may come the moment the link is back, before the reload: either answer counts (a cut
  // one is never a response), so the wait starts before the link comes back.
  const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/auth/refresh'));
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  expect((await refreshed).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Ivy!');
  await expect(page).not.toHaveURL(/\/login/);
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBe(rotatedTo);
});

test('two tabs whose token ran out together send one refresh and keep one pair', async ({ page, request }) => {
  const adminToken = await apiToken(request, ADMIN);
  const carParkId = await createCarPark(request, adminToken, `Two tabs ${uniqueSuffix()}`);
  const officer = await createOfficer(request, adminToken, 'Jem', [carParkId]);
  await signIn(page, officer);
  await page.waitForLoadState('networkidle');
  const second = await page.context().newPage();
  await second.goto('/dashboard');
  await expect(second.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Jem!');

  // The refresh is slow, so the second tab's own 401 surely comes while the first refresh is out.
  // Counted when answered: one the page sent just before its reload is cancelled with that page.
  let refreshes = 0;
  await page.context().route('**/api/auth/refresh', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  page.context().on('requestfinished', (finished) => {
    if (finished.url().endsWith('/api/auth/refresh')) refreshes++;
  });
  const refusedIn = new Set<string>();
  for (const [name, tab] of [
    ['first', page],
    ['second', second],
  ] as const) {
    tab.on('response', (answer) => {
      if (answer.status() === 401 && !answer.url().endsWith('/auth/refresh')) refusedIn.add(name);
    });
  }
  // The access token runs out for both tabs at once (they share the session's row), and both reload.
  await changeSessionPair(page, { token: EXPIRED });
  await Promise.all([page.reload(), second.reload()]);
  await expect.poll(() => [...refusedIn].sort()).toEqual(['first', 'second']);
  for (const tab of [page, second]) {
    await expect.poll(() => tab.evaluate(() => localStorage.getItem('token'))).not.toBe(EXPIRED);
    await expect(tab.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Jem!');
    await expect(tab).not.toHaveURL(/\/login/);
  }
  // One tab refreshed under the shared lock; the other took the pair it left in IndexedDB.
  expect(refreshes).toBe(1);
  const pairs = await Promise.all(
    [page, second].map((tab) => tab.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refreshToken')])),
  );
  expect(pairs[0]).toEqual(pairs[1]);
});
