import type { Page } from '@playwright/test';
import type { PermitListResponse } from '@parkpatrol/shared';
import { apiToken, bearer, createCarPark, uniqueSuffix } from './admin-support.ts';
import { ADMIN, expect, snap, test } from './fixtures.ts';

/**
 * The visitor page (decision 0041), as a visitor meets it from a QR code on a sign: a stranger's
 * first visit on a phone, so it costs what the sign-in page costs (the page the byte budget is set
 * for) and its own small screen, no more; then a wrong code told beside its field, then the
 * visitor permit, which the car park's permit list shows.
 */
/** The visitor screen's own script, style and first call, on top of what every first visit loads. */
const OWN_SCREEN_BYTES = 5 * 1024;
test.skip(({ isMobile }) => !isMobile, 'A visitor on a phone, from a QR code');
test.use({ serviceWorkers: 'block' });

/**
 * Everything a first visit to `path` brings over the wire until `label`'s field can be typed in,
 * by address (the page itself as 'document': every screen is the same HTML).
 */
async function bytesUntilUsable(page: Page, path: string, label: string): Promise<{ bytes: number; byPath: Map<string, number> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const requested = new Map<string, string>();
  const byPath = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const pathname = new URL(event.request.url).pathname;
    requested.set(event.requestId, pathname === path ? 'document' : pathname);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const key = requested.get(event.requestId) ?? event.requestId;
    byPath.set(key, (byPath.get(key) ?? 0) + event.encodedDataLength);
  });
  await page.goto(path);
  await expect(page.getByLabel(label).first()).toBeEditable();
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return { bytes: [...byPath.values()].reduce((sum, bytes) => sum + bytes, 0), byPath };
}

test('a visitor registers from the page on the sign, within the sign-in page’s bytes; a wrong code is told beside its field', async ({
  page,
  request,
}, testInfo) => {
  const adminToken = await apiToken(request, ADMIN);
  const carParkName = `Reception ${uniqueSuffix()}`;
  const carParkId = await createCarPark(request, adminToken, carParkName);
  const siteCode = `visit-${uniqueSuffix().toLowerCase()}`;
  const opened = await request.put(`/api/car-parks/${carParkId}/visitor`, {
    headers: bearer(adminToken),
    data: { siteCode, visitorCode: 'TULIP42', dailyLimit: 5 },
  });
  expect(opened.status(), await opened.text()).toBe(200);

  const signIn = await bytesUntilUsable(await page.context().newPage(), '/login', 'Email');
  const visit = await bytesUntilUsable(page, `/visit/${siteCode}`, 'Visitor code');
  testInfo.annotations.push({
    type: 'bytes',
    description: `first visit: sign-in ${(signIn.bytes / 1024).toFixed(1)} KB, visitor page ${(visit.bytes / 1024).toFixed(1)} KB`,
  });
  // What the visitor page loads that the sign-in page does not, compared file by file: a total
  // would also count what either page fetches once idle (the service worker's helper), early or late.
  const own = [...visit.byPath].filter(([path]) => !signIn.byPath.has(path));
  expect(
    own.reduce((sum, [, bytes]) => sum + bytes, 0),
    JSON.stringify(own),
  ).toBeLessThanOrEqual(OWN_SCREEN_BYTES);
  // The form's checks are its own few lines: neither schemas' chunk, the officer's or the rest, comes with it.
  expect([...visit.byPath.keys()].filter((path) => /^\/assets\/(patrol-)?schemas-/.test(path))).toEqual([]);
  await expect(page.getByRole('heading', { level: 1, name: `Visitor parking: ${carParkName}` })).toBeVisible();

  // Checked on the page before anything is sent.
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Vehicle registration is required')).toBeVisible();
  await expect(page.getByText('Enter the visitor code')).toBeVisible();

  await page.getByLabel('Vehicle registration').fill('vi51 tor');
  await page.getByLabel('Visitor code').fill('TULIP41');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('That visitor code is not right. Ask at reception.')).toBeVisible();
  await expect(page.getByLabel('Visitor code')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Visitor code').fill('TULIP42');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are registered' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('VI51TOR may park here until the end of');
  await snap(page, testInfo, 'visitor-registered');

  const permits = await request.get(`/api/car-parks/${carParkId}/permits`, { headers: bearer(adminToken) });
  const list = (await permits.json()) as { data: PermitListResponse };
  expect(list.data.permits.map((permit) => [permit.vehicleRegistration, permit.kind, permit.source])).toEqual([
    ['VI51TOR', 'VISITOR', 'VISITOR_PAGE'],
  ]);

  // An unknown address says so, and offers no form.
  await page.goto('/visit/no-such-site');
  await expect(page.getByRole('alert')).toHaveText('This visitor page does not exist. Check the address on the sign.');
  await expect(page.getByLabel('Visitor code')).toHaveCount(0);
});
