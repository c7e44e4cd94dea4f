import { expect, expectNoSeriousAxeViolations, signIn, snap, test } from './fixtures.ts';
import { ADMIN, apiToken, createUserThroughApi, uniqueSuffix } from './admin-support.ts';
import { waitForEmailTo } from './mail-sink.ts';

/**
 * Forgot and reset password end to end through the real SMTP server, then the profile
 * screen (name and password). A user of its own, so the demo accounts other specs sign in
 * with keep their passwords.
 */
test.skip(({ isMobile }) => isMobile, 'One run is enough: the reset link is single-use and requests are rate limited');

test('forgot password, reset from the emailed link, then profile name and password', async ({ page }, testInfo) => {
  const suffix = uniqueSuffix().toLowerCase();
  const account = { firstName: 'Rita', lastName: 'Reset', email: `rita.${suffix}@example.com`, password: 'first-pass' };
  await createUserThroughApi(page.request, await apiToken(page.request, ADMIN), account);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Password reset email sent')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'forgot password');

  const mail = await waitForEmailTo(account.email, { subject: /Reset your/ });
  const link = /https?:\/\/\S+\/reset-password\?token=[^\s"]+/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();

  await page.goto(link!);
  await page.getByLabel('New password', { exact: true }).fill('abc');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('second-pass');
  await page.getByLabel('Confirm new password').fill('second-pas');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill('second-pass');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Password reset successful')).toBeVisible();
  // One way on from here, not two.
  await expect(page.getByRole('link', { name: /sign in/i })).toHaveText(['Go to sign in']);
  await expectNoSeriousAxeViolations(page, 'reset password');

  // The link worked once; a second use says so before anything is typed, as does a link
  // without a token.
  await page.goto(link!);
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  const expired = 'This password reset link is invalid or has expired. Please request a new one.';
  await expect(page.getByRole('alert')).toHaveText(expired);
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
  await page.goto('/reset-password');
  await expect(page.getByRole('alert')).toHaveText(expired);

  // Only the new password signs in.
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await signIn(page, { email: account.email, password: 'second-pass' });

  // Profile: a new name shows in the account button at once; the password needs the current one.
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your details' })).toContainText(account.email);
  await page.getByLabel('First name').fill('Margarita');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Your name was saved.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Account menu for Margarita Reset/ })).toHaveText('MR');
  await page.getByLabel('Current password').fill('wrong-pass');
  await page.getByLabel('New password', { exact: true }).fill('fourth-pass');
  await page.getByLabel('Confirm new password').fill('fourth-pass');
  await page.getByRole('button', { name: 'Change password' }).click();
  // Said once, beside the field it is about, which takes the focus.
  await expect(page.getByText('Current password is incorrect')).toHaveCount(1);
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Current password')).toBeFocused();
  await page.getByLabel('Current password').fill('second-pass');
  // The server's message goes once its field has changed; the new one is checked on the next press.
  await expect(page.getByText('Current password is incorrect')).toHaveCount(0);
  await page.getByLabel('Confirm new password').fill('fourth-pas');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Passwords do not match')).toHaveCount(1);
  await page.getByLabel('Confirm new password').fill('fourth-pass');
  await expect(page.getByText('Passwords do not match')).toHaveCount(0);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password was changed.')).toBeVisible();
  await snap(page, testInfo, 'profile');
  await expectNoSeriousAxeViolations(page, 'profile');

  const check = await page.request.post('/api/auth/login', { data: { email: account.email, password: 'fourth-pass' } });
  expect(check.status()).toBe(200);
});
