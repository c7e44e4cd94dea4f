import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';

/** Running it in the field: the app reports its uncaught errors with its build; source maps stay private. */
// eslint-disable-next-line no-empty-pattern -- Playwright hooks must destructure their fixtures
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'nothing here depends on the screen');
});

test.describe('an error thrown on purpose', () => {
  test.use({ expectedPageErrors: ['e2e: something broke'] });

  test('an uncaught error is reported to the server with the build it came from, and answered 202', async ({ page }) => {
    await page.goto('/login');
    // The reporter is the app's: it runs once the app's scripts have started (after the first paint).
    await page.locator('#root button[type=submit]').waitFor();
    const reported = page.waitForRequest((request) => request.url().endsWith('/api/client-errors'));
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e: something broke');
      });
    });
    const request = await reported;
    const body = request.postDataJSON() as { message: string; page: string; buildId: string; stack?: string };
    expect(body).toMatchObject({ message: 'Error: e2e: something broke', page: '/login' });
    expect(body.buildId).toMatch(/^[\w.-]+$/);
    expect((await request.response())?.status()).toBe(202);
  });
});

test('the build serves no source map: they are kept apart for reading reports', async ({ request }) => {
  const dist = join(import.meta.dirname, '..', 'dist');
  const files = readdirSync(dist, { recursive: true }) as string[];
  expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
  const script = files.find((file) => /^assets[\\/].+\.js$/.test(file))!;
  const answer = await request.get(`/${script.replaceAll('\\', '/')}.map`);
  expect(answer.headers()['content-type']).not.toContain('json');
});
