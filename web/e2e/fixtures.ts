import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test as base, type Page, type TestInfo } from '@playwright/test';

export const OFFICER = { email: 'officer@example.com', password: 'officer123', firstName: 'Olivia' };
export const ADMIN = { email: 'admin@example.com', password: 'admin123' };

/** The server started by global-setup.ts, on a free port with a fresh database. */
export const test = base.extend<{ failOnConsoleErrors: void; expectedPageErrors: readonly string[] }>({
  /** Errors a test raises on purpose (text it contains), which failOnConsoleErrors lets pass. */
  expectedPageErrors: [[], { option: true }],
  /**
   * An error the app logs is a bug nobody looked at (style.md). The browser's own "Failed to load
   * resource" lines for expected 4xx answers (a wrong password, an expired token) are not ours.
   */
  failOnConsoleErrors: [
    async ({ page, expectedPageErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use();
      const unexpected = errors.filter((error) => !expectedPageErrors.some((expected) => error.includes(expected)));
      expect(unexpected, 'console errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  baseURL: async ({}, use) => {
    const url = process.env.PP_BASE_URL;
    if (!url) throw new Error('PP_BASE_URL is not set: run through playwright.config.ts (global setup starts the server)');
    await use(url);
  },
});
export { expect };

export function evidencePhotos(): string[] {
  const dir = process.env.PP_FIXTURES_DIR ?? '';
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jpg'))
    .sort()
    .map((name) => join(dir, name));
}

export function isPhone(testInfo: TestInfo): boolean {
  return testInfo.project.name === 'phone';
}

export async function signIn(page: Page, account: { email: string; password: string } = OFFICER) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Opens the drawer on a phone; the side navigation is always there on a desktop. */
export async function openNavigation(page: Page, testInfo: TestInfo) {
  if (isPhone(testInfo)) await page.getByRole('button', { name: 'Open navigation' }).click();
  return page.getByRole('navigation', { name: 'Main' });
}

/** A full-page screenshot kept as a test artifact under test-results/. */
export async function snap(page: Page, testInfo: TestInfo, name: string) {
  // From the top, so the sticky top bar is not painted over the middle of a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath(`${testInfo.project.name}-${name}.png`), fullPage: true });
}

/**
 * Every control on the screen is at least 44 x 44 CSS px to tap. A checkbox, radio or
 * file input counts by its label, which is what a thumb presses.
 */
export async function expectTouchTargets(page: Page, screen: string) {
  const small = await page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('a, button, select, textarea, input, summary')) {
      const isLabelled = element instanceof HTMLInputElement && ['checkbox', 'radio', 'file'].includes(element.type);
      const target = (isLabelled ? element.closest('label') : null) ?? element;
      const box = target.getBoundingClientRect();
      // Not on screen (closed, hidden or visually hidden): nothing to tap.
      if (box.width <= 1 || box.height <= 1 || getComputedStyle(target).visibility === 'hidden') continue;
      if (box.width < 44 || box.height < 44)
        found.push(
          `${(target.getAttribute('aria-label') ?? target.textContent ?? target.tagName).trim().slice(0, 40)}: ${Math.round(box.width)} x ${Math.round(box.height)}`,
        );
    }
    return found;
  });
  expect(small, `controls under 44 x 44 px on ${screen}`).toEqual([]);
}

/** axe on the current screen: nothing of serious or critical impact. */
export async function expectNoSeriousAxeViolations(page: Page, screen: string) {
  // Legacy mode runs axe in the page itself. The default runs it in parts and finishes in a new
  // tab, injecting axe there as well: twice the time for the same result. Its gain is reading
  // frames from other origins, and the app's policy (default-src 'self') allows none.
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(serious, `axe violations on ${screen}`).toEqual([]);
}

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
function dayIn(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/**
 * Where to start a page clock that a spec then runs forward by up to `minutes`: now, or earlier
 * when that run would cross midnight, in UTC (the parking event's day) or in London (the day the
 * officer's screens name). Across midnight the app rightly says '00:05 tomorrow' and stops calling
 * a notice from before midnight "today", so a spec started at 23:50 would see another journey
 * than one started at noon. The unit tests cover midnight; the server measures waits against the
 * device's clock (X-Device-Time), so a phone a little behind is what a real one can be.
 */
export function clockStartWithinOneDay(minutes: number, now = Date.now()): Date {
  let start = now;
  const crossesMidnight = (from: number) =>
    ['UTC', 'Europe/London'].some((zone) => dayIn(from, zone) !== dayIn(from + minutes * 60_000, zone));
  while (crossesMidnight(start)) start -= 30 * 60_000;
  return new Date(start);
}

/** A unique, valid registration per test run and project, so parallel projects never collide. */
export function uniqueRegistration(testInfo: TestInfo): string {
  const letter = isPhone(testInfo) ? 'P' : 'D';
  return `E2E${letter}${Date.now().toString(36).slice(-5).toUpperCase()}`;
}

/** Picks `option` in the select labelled `label`, as a phone's picker does. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).selectOption({ label: option });
}

/** One tap on an offence type (a radio row). */
export async function chooseOffence(page: Page, offence: string) {
  await page.getByRole('radio', { name: offence }).check();
}

/** Guided capture: each photo taken from its shot's row (`photos[i]` for `shots[i]`). */
export async function takeShots(page: Page, photos: readonly string[], shots: readonly string[] = NO_PERMIT_SHOTS) {
  const previews = page.locator('.previews img');
  const before = await previews.count();
  for (const [index, shot] of shots.entries()) {
    await page.getByLabel(`Take photo: ${shot}`).setInputFiles(photos[index]!);
    await expect(previews).toHaveCount(before + index + 1);
  }
}

/** The shots 'Parking without permit' needs, one per photo in the order the photos were added. */
export const NO_PERMIT_SHOTS = ['Number plate', 'Vehicle in context', 'Signage', 'Windscreen, no permit'];

/**
 * Marks on the evidence step's photo checklist what each photo shows: `shots[i]` on
 * photo i + 1. Next is refused until every shot the offence needs is on some photo.
 */
export async function markChecklistShots(page: Page, shots: readonly string[] = NO_PERMIT_SHOTS) {
  for (const [index, shot] of shots.entries()) await markShot(page, index + 1, shot);
}

/** Ticks one shot on one photo, as an officer does: by its label, opening "Change" if it is closed. */
export async function markShot(page: Page, photoNumber: number, shot: string) {
  const group = page.getByRole('group', { name: `Photo ${photoNumber} shows` });
  if (!(await group.isVisible())) await page.locator('summary', { hasText: `what photo ${photoNumber} shows` }).click();
  const box = group.getByRole('checkbox', { name: shot });
  if (!(await box.isChecked())) await group.getByText(shot, { exact: true }).click();
  await expect(box).toBeChecked();
}
