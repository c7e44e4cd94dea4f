import { expect, test } from './fixtures.ts';
import { apiToken, bearer, createUserThroughApi, uniqueSuffix } from './admin-support.ts';
import { waitForEmailTo } from './mail-sink.ts';

/**
 * An account opened by an access link has no password yet. Until it
 * chooses one, every address of the app (the installed app's start address `/` included) keeps
 * it on the password step; the server refuses it everything else too. Then a bad reset link
 * says it is invalid before anyone types.
 */
test('after the access link, / and every other route stay on the password step until it is set', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const user = { firstName: 'Pia', lastName: `Passwordless${suffix}`, email: `pia.${suffix.toLowerCase()}@example.com` };
  const adminToken = await apiToken(request);
  const { id } = await createUserThroughApi(request, adminToken, user);
  const sent = await request.post(`/api/onboarding/send/${id}`, { headers: bearer(adminToken), data: {} });
  expect(sent.status(), await sent.text()).toBe(200);
  const mail = await waitForEmailTo(user.email);
  const link = /https?:\/\/\S+\/u\/[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();

  const passwordStep = page.getByRole('heading', { name: `Welcome, ${user.firstName}! Choose your password` });
  await page.goto(link!);
  await expect(passwordStep).toBeVisible();

  for (const path of ['/', '/dashboard', '/pcn', '/pcn/new', '/profile', '/admin']) {
    await page.goto(path);
    await expect(passwordStep, path).toBeVisible();
    await expect(page.getByRole('heading', { name: `Welcome back, ${user.firstName}!` }), path).toHaveCount(0);
    await expect(page.getByRole('navigation'), path).toHaveCount(0);
  }

  // The server agrees: the session the link gave cannot list PCNs.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const refused = await request.get('/api/pcns', { headers: bearer(token!) });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe('PASSWORD_REQUIRED');

  // Setting it from any route lets that route show.
  await page.goto('/pcn');
  await page.getByLabel('New password', { exact: true }).fill('pia-password-1');
  await page.getByLabel('Confirm new password').fill('pia-password-1');
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My PCNs' })).toBeVisible();
  await expect(passwordStep).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${user.firstName}!` })).toBeVisible();
});

test('a bad reset link says so before anything is typed, and there is one way back to sign in', async ({ page }) => {
  await page.goto('/reset-password?token=not-a-real-reset-token');
  await expect(page.getByRole('alert')).toHaveText('This password reset link is invalid or has expired. Please request a new one.');
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
});
