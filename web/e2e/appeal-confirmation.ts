import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { readEmailsTo, waitForEmailTo } from './mail-sink.ts';

const confirmationSubject = (pcnNumber: string) => new RegExp(`^Confirm your appeal against parking charge \\S*${pcnNumber}$`);

/** How many confirmation emails this address has had for this charge: taken before filing again, to wait for the next. */
export async function confirmationsSoFar(email: string, pcnNumber: string): Promise<number> {
  const subject = confirmationSubject(pcnNumber);
  return (await readEmailsTo(email)).filter((message) => subject.test(message.subject ?? '')).length;
}

/**
 * The path and query of the link emailed for an appeal against this charge from /charge
 * (decision 0032): the appeal counts only once the motorist opens it and presses Send. The
 * email is a job's, sent just after the answer: this waits for confirmation email number `count`
 * to the address for the charge (an appeal filed again, after one was set aside, has its own).
 */
export async function appealConfirmationPath(email: string, pcnNumber: string, count = 1): Promise<string> {
  const mail = await waitForEmailTo(email, { subject: confirmationSubject(pcnNumber), count });
  const link = /https?:\/\/\S+\/charge\/confirm-appeal\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no confirmation link in: ${mail.text ?? ''}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** The motorist opens the emailed link in this tab and presses Send, then goes back to the charge. */
export async function confirmAppealFromEmail(page: Page, email: string, pcnNumber: string): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: 'Check your email.' })).toBeVisible({ timeout: 30_000 });
  await page.goto(await appealConfirmationPath(email, pcnNumber));
  await page.getByRole('button', { name: 'Send my appeal' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Your appeal APL-${pcnNumber} has been received.` })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('link', { name: 'See your charge' }).click();
}

/** The same by the API, as a script would: the link's token posted to the confirmation endpoint. */
export async function confirmAppealThroughApi(request: APIRequestContext, email: string, pcnNumber: string, count = 1) {
  const path = await appealConfirmationPath(email, pcnNumber, count);
  const token = new URLSearchParams(path.slice(path.indexOf('?'))).get('token');
  return request.post('/api/public/appeals/confirm', { data: { token } });
}
