import { ADMIN, apiToken, createCarPark, createOfficer, uniqueSuffix } from './admin-support.ts';
import { expect, signIn, test } from './fixtures.ts';

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

  // The server answers the refresh, and the phone never hears it: the connection drops.
  let rotatedTo: string | null = null;
  await page.route('**/api/auth/refresh', async (route) => {
    const answer = await route.fetch();
    rotatedTo = ((await answer.json()) as { data: { refreshToken: string } }).data.refreshToken;
    await route.abort('connectionreset');
  });
  await page.evaluate((expired) => localStorage.setItem('token', expired), EXPIRED);
  await page.reload();
  await expect.poll(() => rotatedTo).not.toBeNull();
  // The phone still holds the token the server has already rotated.
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBe(signedInWith);

  // The app starts again with signal: it presents the rotated token and gets the same new pair.
  await page.unroute('**/api/auth/refresh');
  const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/auth/refresh'));
  await page.reload();
  expect((await refreshed).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Ivy!');
  await expect(page).not.toHaveURL(/\/login/);
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBe(rotatedTo);
});
